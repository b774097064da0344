import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { detectMessageLanguage } from "@/lib/platform/language/detect";
import { type CorrectionContext, prepareSpelling } from "@/lib/polish/corrections";
import { polishWithRules } from "@/lib/polish/rules";
import { spellerLoadTimes, startLoadingSpellers } from "@/lib/polish/spelling";

/**
 * Real customer chat sentences of a plant shop, 60 per language, each with the expected `normal`
 * and `concise` polish. Every expected output was read and judged by a person: abbreviations
 * written out, accents restored, questions marked the way the language marks them.
 */
type Entry = [input: string, normal: string, concise: string];
/**
 * Ninety more per language, each with the one correct `normal` polish a careful writer of the
 * language would send: misspellings, missing accents, names in lower case, chat abbreviations and
 * drafts full of prices, links, e-mail addresses and phone numbers. The names and the business's
 * own words are those a conversation would give (the contact, the team, the business profile).
 */
type Fix = [input: string, normal: string];
type Language = "en" | "es" | "pt";
const corpus = JSON.parse(readFileSync(path.join(import.meta.dirname, "../support/polish-corpus.json"), "utf8")) as Record<Language, Entry[]> & {
  fixes: Record<Language, Fix[]> & { context: Record<Language, Pick<CorrectionContext, "names" | "knownWords">> };
};

const languages = ["en", "es", "pt"] as const;

// Chat spellings with a digit are words to write out, not numbers to keep.
const digitWords = /^(?:b4|2day|2moro|2morrow|2nite|salu2)$/i;
/** Links, e-mail addresses, prices, phone numbers and every chunk holding a digit, as written. */
function protectedSpans(text: string): string[] {
  const spans = text.match(/(?:https?:\/\/|www\.)\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:R\$|US\$|[$€£])\s?\d[\d.,]*|\+?\d[\d ]{6,}\d|\S*\d\S*/gu) ?? [];
  return spans.map((span) => span.replace(/[.,;:!?]+$/u, "")).filter((span) => span && !digitWords.test(span));
}

describe("the polishing corpus", () => {
  it("holds at least 60 sentences per language", () => {
    for (const language of languages) expect(corpus[language].length).toBeGreaterThanOrEqual(60);
  });

  it("holds 150 sentences per language with the fixes", () => {
    for (const language of languages) expect(corpus[language].length + corpus.fixes[language].length).toBeGreaterThanOrEqual(150);
  });

  describe("with the Hunspell dictionaries", () => {
    beforeAll(async () => {
      await startLoadingSpellers();
      for (const language of languages) expect(spellerLoadTimes[language], `the ${language} dictionary loads`).toBeDefined();
      console.log(`polish dictionaries loaded in ${JSON.stringify(spellerLoadTimes)} ms`);
    }, 120_000);

    const contextOf = async (language: Language, text: string): Promise<CorrectionContext> => {
      const context = corpus.fixes.context[language];
      const spelling = await prepareSpelling({ text, language, context });
      expect(spelling).not.toBeNull();
      return { ...context, spelling: spelling ?? undefined };
    };

    // A sentence counts only when the whole polish is exactly the expected one. The engine may leave
    // a mistake it is unsure of (a word that is also a name, a verb form the context does not settle),
    // so at most one sentence in ten may miss; a wrong "fix" counts as a miss too.
    it.each(languages)("fixes at least 90 %% of the expected fixes in %s, and says how many", async (language) => {
      const results = [];
      for (const [input, expected] of corpus.fixes[language]) {
        results.push({ input, expected, got: polishWithRules({ text: input, style: "normal", language, context: await contextOf(language, input) }) });
      }
      const misses = results.filter(({ expected, got }) => expected !== got);
      const share = (results.length - misses.length) / results.length;
      console.log(`polish corpus ${language}: ${results.length - misses.length}/${results.length} sentences fixed as expected (${(share * 100).toFixed(1)} %)`);
      for (const miss of misses) console.log(`  missed: ${JSON.stringify(miss.input)} → ${JSON.stringify(miss.got)} (expected ${JSON.stringify(miss.expected)})`);
      expect(share).toBeGreaterThanOrEqual(0.9);
    });

    it.each(languages)("never changes a number, price, link, e-mail address or phone number in %s, whatever the style (100 %%)", async (language) => {
      const inputs = [...corpus[language].map(([input]) => input), ...corpus.fixes[language].map(([input]) => input)];
      let checked = 0;
      const changed: string[] = [];
      for (const input of inputs) {
        const spans = protectedSpans(input);
        const context = await contextOf(language, input);
        for (const style of ["normal", "concise", "explanatory"] as const) {
          const output = polishWithRules({ text: input, style, language, businessName: "Verde Vivo", context });
          for (const span of spans) {
            checked += 1;
            if (!output.includes(span)) changed.push(`${style}: ${JSON.stringify(span)} in ${JSON.stringify(output)}`);
          }
        }
      }
      console.log(`polish corpus ${language}: ${checked - changed.length}/${checked} protected spans kept (${(((checked - changed.length) / checked) * 100).toFixed(1)} %)`);
      expect(checked).toBeGreaterThan(100);
      expect(changed).toEqual([]);
    });

    it("Portuguese fixes stay Portuguese", async () => {
      const spanishOnly = /[¿¡ñ]|\b(?:también|usted|ustedes|gracias|qué|dónde|cuándo|mañana|está en|más)\b/iu;
      for (const [input] of corpus.fixes.pt) {
        const context = await contextOf("pt", input);
        for (const style of ["normal", "concise", "explanatory"] as const) {
          expect(polishWithRules({ text: input, style, language: "pt", businessName: "Verde Vivo", context })).not.toMatch(spanishOnly);
        }
      }
    });
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
