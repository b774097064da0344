import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectMessageLanguage } from "@/lib/platform/language/detect";
import { polishWithRules } from "@/lib/polish/rules";

/**
 * Real customer chat sentences of a plant shop, 60 per language, each with the expected `normal`
 * and `concise` polish. Every expected output was read and judged by a person: abbreviations
 * written out, accents restored, questions marked the way the language marks them.
 */
type Entry = [input: string, normal: string, concise: string];
const corpus = JSON.parse(readFileSync(path.join(import.meta.dirname, "../support/polish-corpus.json"), "utf8")) as Record<"en" | "es" | "pt", Entry[]>;

const languages = ["en", "es", "pt"] as const;

describe("the polishing corpus", () => {
  it("holds at least 60 sentences per language", () => {
    for (const language of languages) expect(corpus[language].length).toBeGreaterThanOrEqual(60);
  });

  for (const language of languages) {
    describe(language, () => {
      it.each(corpus[language])("%j", (input, normal, concise) => {
        expect(polishWithRules({ text: input, style: "normal", language })).toBe(normal);
        expect(polishWithRules({ text: input, style: "concise", language })).toBe(concise);
        // A second pass changes nothing.
        expect(polishWithRules({ text: normal, style: "normal", language })).toBe(normal);
      });
    });
  }

  it("Portuguese stays Portuguese: no Spanish marks or words are introduced", () => {
    const spanishOnly = /[¿¡ñ]|\b(?:también|usted|ustedes|gracias|porque sí|qué|dónde|cuándo|mañana)\b/iu;
    for (const [input, normal, concise] of corpus.pt) {
      for (const output of [normal, concise, polishWithRules({ text: input, style: "explanatory", language: "pt", businessName: "Verde Vivo" })]) {
        expect(output).not.toMatch(spanishOnly);
      }
    }
  });

  it("the detector tells the three languages apart on the corpus", () => {
    for (const language of languages) {
      const detected = corpus[language].map(([input]) => detectMessageLanguage(input));
      const wrong = corpus[language].filter((_, index) => detected[index] !== null && detected[index] !== language).map(([input]) => input);
      const unsure = detected.filter((value) => value === null).length;
      // Never the other language; "unsure" is allowed for a few one-word messages.
      expect(wrong).toEqual([]);
      expect(unsure).toBeLessThanOrEqual(6);
    }
  });

  it("concise drops greetings in all three languages", () => {
    expect(polishWithRules({ text: "hi there, is order #4521 ready for pickup?", style: "concise", language: "en" })).toBe("Is order #4521 ready for pickup?");
    expect(polishWithRules({ text: "hola q tal? hacen envios al interior?", style: "concise", language: "es" })).toBe("¿Hacen envíos al interior?");
    expect(polishWithRules({ text: "oi, tudo bem? vcs fazem entrega no interior?", style: "concise", language: "pt" })).toBe("Vocês fazem entrega no interior?");
  });

  it("a Spanish question after a greeting keeps and restores its accents", () => {
    expect(polishWithRules({ text: "hola, que hora abren? y xq cerraron ayer?", style: "normal", language: "es" })).toBe("Hola, ¿qué hora abren? ¿Y por qué cerraron ayer?");
    expect(polishWithRules({ text: "Buenas! ¿qué precio tiene el helecho?", style: "normal", language: "es" })).toBe("¡Buenas! ¿Qué precio tiene el helecho?");
  });

  it("explanatory speaks Portuguese to a Portuguese draft", () => {
    expect(polishWithRules({ text: "seu pedido sai amanha", style: "explanatory", language: "pt", businessName: "Verde Vivo" })).toBe(
      "Olá, obrigado por entrar em contato com Verde Vivo.\n\nSeu pedido sai amanhã.\n\nSe tiver qualquer outra dúvida, estamos à disposição para ajudar.\n— Equipe Verde Vivo",
    );
  });
});
