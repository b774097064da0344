import { describe, expect, it } from "vitest";
import { polishStyles, polishWithRules, type PolishStyle } from "@/lib/polish/rules";

type Sample = {
  name: string;
  language: "en" | "es";
  text: string;
  /** Text the normal style must produce somewhere (abbreviations written out, fixed spacing). */
  expanded: string[];
  /** Chat spellings that must be gone from every style. */
  abbreviations: string[];
  /** Names, numbers, dates, times, prices and links that every style must keep verbatim. */
  keep: string[];
  /** Greetings, sign-offs and filler that the concise style removes. */
  conciseDrops: string[];
  /** Whether the message has greetings or filler, so the concise style must be strictly shorter. */
  wordy: boolean;
};

const businessName = "Acme";

const samples: Sample[] = [
  {
    name: "tracking link with chat spellings",
    language: "en",
    text: "hi there!  u can track ur order here: https://shop.example.com/track?id=A-1234 . thx",
    expanded: ["You can track your order here: https://shop.example.com/track?id=A-1234."],
    abbreviations: ["u", "ur", "thx"],
    keep: ["https://shop.example.com/track?id=A-1234"],
    conciseDrops: ["Hi there", "Thanks"],
    wordy: true,
  },
  {
    name: "refund confirmation with greeting and signature",
    language: "en",
    text: "Hello Maria,\n\ni just wanted to let you know that ur refund of $49.99 was processed on 12/03/2026.it should show up in 3-5 business days\n\nBest regards,\nAna",
    expanded: ["I just wanted", "your refund", "12/03/2026. It should", "3-5 business days."],
    abbreviations: ["ur"],
    keep: ["Maria", "$49.99", "12/03/2026", "3-5", "Ana"],
    conciseDrops: ["Hello", "just wanted to let you know", "Best regards"],
    wordy: true,
  },
  {
    name: "plan pricing with a hedge and a note",
    language: "en",
    text: "Hello,\n\nActually the Premium plan costs €29/month and u can cancel anytime at www.acme.com/billing. Please note that prices r in EUR.\n\nThanks,\nTom",
    expanded: ["and you can cancel", "prices are in EUR."],
    abbreviations: ["u", "r"],
    keep: ["Premium", "€29/month", "www.acme.com/billing", "EUR", "Tom"],
    conciseDrops: ["Hello", "Actually", "Please note that"],
    wordy: true,
  },
  {
    name: "replacement shipped with a tracking number",
    language: "en",
    text: "sorry for the delay!! we shipped ur replacement via UPS yesterday, tracking number 1Z999AA10123456784. it should arrive by Friday 5 pm",
    expanded: ["Sorry for the delay! We shipped your replacement", "Friday 5 pm."],
    abbreviations: ["ur"],
    keep: ["UPS", "1Z999AA10123456784", "Friday", "5 pm"],
    conciseDrops: [],
    wordy: false,
  },
  {
    name: "double charge apology",
    language: "en",
    text: "i'm really sorry, ur order #4521 was charged twice ($15.00). i've already asked our billing team to refund it, u should see it in 2-3 days. lmk if u have questions",
    expanded: ["I'm", "I've already", "your order #4521", "you should see it", "Let me know if you have questions."],
    abbreviations: ["ur", "u", "lmk", "i"],
    keep: ["#4521", "$15.00", "2-3"],
    conciseDrops: ["really"],
    wordy: true,
  },
  {
    name: "out of stock with hedges",
    language: "en",
    text: "Hey! basically the Nike Air size 42 is out of stock , i think it will be back by March 15. I was wondering if you could choose another size",
    expanded: ["Basically the Nike Air", "out of stock, I think", "March 15."],
    abbreviations: ["i"],
    keep: ["Nike Air", "42", "March 15"],
    conciseDrops: ["Hey", "basically", "I think", "wondering"],
    wordy: true,
  },
  {
    name: "shipping today with courtesy sentences",
    language: "en",
    text: "Thanks so much! Your order ORD-5521 ships today. email support@acme.com if u need anything. Have a great day!",
    expanded: ["Email support@acme.com if you need anything."],
    abbreviations: ["u"],
    keep: ["ORD-5521", "support@acme.com"],
    conciseDrops: ["Thanks so much", "Have a great day"],
    wordy: true,
  },
  {
    name: "photo request with opening hours",
    language: "en",
    text: "pls send me a pic of the damaged item asap , btw we r open tmrw from 9am to 6pm",
    expanded: ["Please send me", "as soon as possible, by the way we are open tomorrow from 9am to 6pm."],
    abbreviations: ["pls", "asap", "btw", "r", "tmrw"],
    keep: ["9am", "6pm"],
    conciseDrops: [],
    wordy: false,
  },
  {
    name: "delivery check question",
    language: "en",
    text: "idk if the package arrived b4 the weekend, can u check order #88231 ???",
    expanded: ["I don't know if the package arrived before the weekend, can you check order #88231?"],
    abbreviations: ["idk", "b4", "u"],
    keep: ["#88231"],
    conciseDrops: [],
    wordy: false,
  },
  {
    name: "delayed order with Spanish chat spellings",
    language: "es",
    text: "hola! q tal? tu pedido 4512 llega mañana , xq hubo un retraso con DHL. porfa confirma la dirección",
    expanded: ["¿Qué tal?", "llega mañana, porque hubo un retraso con DHL.", "Por favor confirma la dirección."],
    abbreviations: ["q", "xq", "porfa"],
    keep: ["4512", "DHL"],
    conciseDrops: ["Hola", "Qué tal"],
    wordy: true,
  },
  {
    name: "formal reply with hedges",
    language: "es",
    text: "buenos días Sr. Pérez, la verdad creo que el envío tarda 2 días hábiles. tb puede escribir a soporte@tienda.es. Saludos",
    expanded: ["Buenos días Sr. Pérez", "También puede escribir a soporte@tienda.es."],
    abbreviations: ["tb"],
    keep: ["Sr. Pérez", "2 días", "soporte@tienda.es"],
    conciseDrops: ["Buenos días", "la verdad", "creo que", "Saludos"],
    wordy: true,
  },
  {
    name: "refund processed",
    language: "es",
    text: "Hola Ana!\nte comento q el reembolso de $35,50 ya fue procesado el 05/04/2026. tmb te enviamos la factura x correo. cualquier duda me dices",
    expanded: ["¡Hola Ana!", "que el reembolso", "También te enviamos la factura por correo.", "Cualquier duda me dices."],
    abbreviations: ["q", "tmb", "x"],
    keep: ["Ana", "$35,50", "05/04/2026"],
    conciseDrops: ["Hola", "te comento", "cualquier duda"],
    wordy: true,
  },
  {
    name: "product back in stock with a link",
    language: "es",
    text: "Buenas tardes! básicamente el producto Modelo X200 está agotado , pero q llega de nuevo el 15 de mayo. xfa revisa el enlace https://tienda.example.com/x200 para reservarlo",
    expanded: ["¡Buenas tardes!", "agotado, pero que llega", "Por favor revisa el enlace https://tienda.example.com/x200 para reservarlo."],
    abbreviations: ["q", "xfa"],
    keep: ["Modelo X200", "15 de mayo", "https://tienda.example.com/x200"],
    conciseDrops: ["Buenas tardes", "básicamente"],
    wordy: true,
  },
  {
    name: "shipping cost",
    language: "es",
    text: "ntp, ya revisamos tu pedido #A-7781 y sale hoy x DHL Express. el costo de envío es de 4,99 € . Gracias por tu paciencia!",
    expanded: ["No te preocupes, ya revisamos", "sale hoy por DHL Express.", "es de 4,99 €.", "¡Gracias por tu paciencia!"],
    abbreviations: ["ntp", "x"],
    keep: ["#A-7781", "DHL Express", "4,99 €"],
    conciseDrops: ["Gracias por tu paciencia"],
    wordy: true,
  },
  {
    name: "photo request as a question",
    language: "es",
    text: "¿pq no nos mandas una foto del daño? así podemos hacer el cambio rápido.. nuestro horario es de 9:00 a 18:00 hrs",
    expanded: ["¿Por qué no nos mandas", "Así podemos hacer el cambio rápido. Nuestro", "de 9:00 a 18:00 horas."],
    abbreviations: ["pq", "hrs"],
    keep: ["9:00", "18:00"],
    conciseDrops: [],
    wordy: false,
  },
  {
    name: "subscription renewal",
    language: "es",
    text: "Estimada Laura, solo quería avisarte q tu suscripción Plus se renueva el 1 de junio por $9.99 al mes. si quieres cancelarla, entra en www.tienda.com/cuenta. Un saludo",
    expanded: ["que tu suscripción Plus", "Si quieres cancelarla, entra en www.tienda.com/cuenta."],
    abbreviations: ["q"],
    keep: ["Laura", "Plus", "1 de junio", "$9.99", "www.tienda.com/cuenta"],
    conciseDrops: ["Estimada", "solo quería avisarte", "Un saludo"],
    wordy: true,
  },
];

function polish(text: string, style: PolishStyle, name: string | null = businessName): string {
  return polishWithRules({ text, style, businessName: name });
}

function containsWord(text: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\p{L}\\p{N}'’])${escaped}(?![\\p{L}\\p{N}'’])`, "u").test(text);
}

/** Numbers, links, e-mails and capitalised words in the middle of a sentence: what no style may lose. */
function findProtectedTokens(text: string): string[] {
  const links = text.match(/(?:https?:\/\/|www\.)\S+?(?=[.,!?]*(?:\s|$))|[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g) ?? [];
  // Digits inside chat spellings ("b4") are not numbers.
  const numbers = text.match(/(?<!\p{L})\d+/gu) ?? [];
  const names = (text.match(/(?<=[\p{L}\p{N},;:] )\p{Lu}[\p{L}\p{N}]*/gu) ?? []).filter((word) => word !== "I");
  return [...links, ...numbers, ...names];
}

function findSentences(text: string): string[] {
  return text
    .split("\n")
    .flatMap((line) => line.split(/(?<=[.!?…])(?<!\b(?:Sr|Sra|Mr|Mrs|Dr)\.)\s+/))
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

/** A signature line ("— Acme team", "Ana") or a sign-off ending in a comma does not need a full stop. */
function isSignatureLine(line: string): boolean {
  return /^—/.test(line) || /,$/.test(line) || /^\p{Lu}[\p{L}]*$/u.test(line);
}

describe("polishStyles", () => {
  it("lists the three styles", () => {
    expect(polishStyles).toEqual(["concise", "normal", "explanatory"]);
  });
});

describe.each(samples)("polishing $language sample: $name", (sample) => {
  const normal = polish(sample.text, "normal");
  const concise = polish(sample.text, "concise");
  const explanatory = polish(sample.text, "explanatory");
  const outputs: Array<[PolishStyle, string]> = [
    ["normal", normal],
    ["concise", concise],
    ["explanatory", explanatory],
  ];

  it.each(polishStyles)("is idempotent in the %s style", (style) => {
    const once = polish(sample.text, style);
    expect(polish(once, style)).toBe(once);
  });

  it("normal writes out chat abbreviations and fixes spacing", () => {
    for (const text of sample.expanded) expect(normal).toContain(text);
    expect(normal).not.toMatch(/ {2,}| [,.!?]|\n{3,}/);
  });

  it.each(outputs)("%s leaves no chat spelling behind", (_style, output) => {
    for (const abbreviation of sample.abbreviations) {
      expect(containsWord(output, abbreviation), `"${abbreviation}" in ${output}`).toBe(false);
    }
  });

  it.each(outputs)("%s keeps every name, number, date, time, price and link", (_style, output) => {
    for (const token of [...sample.keep, ...findProtectedTokens(sample.text)]) {
      expect(output, `lost "${token}"`).toContain(token);
    }
  });

  it.each(outputs)("%s starts every sentence with a capital letter", (_style, output) => {
    for (const sentence of findSentences(output)) {
      const first = sentence.replace(/^[¿¡"'(—\s]+/, "").charAt(0);
      if (/\p{L}/u.test(first)) expect(first, sentence).toBe(first.toLocaleUpperCase());
    }
  });

  it.each(outputs)("%s ends every line with punctuation", (_style, output) => {
    for (const line of output.split("\n").filter(Boolean)) {
      if (isSignatureLine(line)) continue;
      expect(line, output).toMatch(/[.!?]$/);
    }
  });

  it("concise drops greetings, sign-offs and filler", () => {
    for (const phrase of sample.conciseDrops) {
      expect(concise.toLowerCase(), concise).not.toContain(phrase.toLowerCase());
    }
    expect(concise.length).toBeLessThanOrEqual(normal.length);
    if (sample.wordy) expect(concise.length).toBeLessThan(normal.length);
  });

  it("explanatory adds a courteous opening and closing with the business name and keeps the content", () => {
    expect(explanatory).toContain(businessName);
    if (sample.language === "en") {
      expect(explanatory).toMatch(/thank you for contacting Acme|thanks for/i);
      expect(explanatory).toMatch(/If you have any other questions, we're happy to help\.|let me know if/i);
    } else {
      expect(explanatory).toMatch(/gracias por contactar con Acme/);
      expect(explanatory).toMatch(/Si tienes? cualquier otra pregunta, estaremos encantados de ayudar(te|le)\.|cualquier duda/i);
    }
    // The opening joins an existing greeting ("Hi Maria, thank you for contacting Acme. Your order...")
    // and a closing sign-off moves below the help line, so those are compared without their greeting.
    const startsWithGreeting = /^¡?(?:hi|hello|hey|hola|buenos|buenas|estimad[oa])\b/i;
    const isSignOff = /^(?:thanks|saludos|un saludo|best regards)[.,!]?$/i;
    for (const sentence of findSentences(normal).filter((s) => !isSignOff.test(s))) {
      const content = startsWithGreeting.test(sentence) ? sentence.replace(/^[^,!]*[,!]\s*/, "") : sentence;
      expect(explanatory.toLowerCase(), `lost "${content}"`).toContain(content.toLowerCase());
    }
    expect(explanatory.length).toBeGreaterThan(normal.length);
  });
});

describe("polishWithRules details", () => {
  it.each([
    ["hello   world ,how r u ?", "Hello world, how are you?"],
    ["ok.thanks for waiting.see u soon", "Ok. Thanks for waiting. See you soon."],
    ["wait....what", "Wait... What?"],
    ["i think i'm ready, i'll call u", "I think I'm ready, I'll call you."],
    ["where is my order", "Where is my order?"],
    ["can u resend the invoice", "Can you resend the invoice?"],
    ["when it arrives, lmk", "When it arrives, let me know."],
  ])("normal: %j → %j", (input, expected) => {
    expect(polish(input, "normal")).toBe(expected);
  });

  it("keeps intentional line breaks and collapses runs of blank lines", () => {
    expect(polish("first line\nsecond line\n\n\n\nnew paragraph", "normal")).toBe("First line.\nSecond line.\n\nNew paragraph.");
  });

  it("never reflows links, e-mails, prices, times, dates or order ids", () => {
    const text = "check https://acme.com/Orders?ID=AB12 , email Billing@Acme.com ,total $1,299.50 at 10:30am for order #A-77 on 2026-03-08. ok";
    expect(polish(text, "normal")).toBe(
      "Check https://acme.com/Orders?ID=AB12, email Billing@Acme.com, total $1,299.50 at 10:30am for order #A-77 on 2026-03-08. Ok.",
    );
  });

  it("does not put a full stop on a link that ends a message", () => {
    expect(polish("track it here https://acme.com/t/ABC", "normal")).toBe("Track it here https://acme.com/t/ABC");
  });

  it("keeps brand capitalisation and dotted abbreviations", () => {
    expect(polish("iPhone repairs take 2 days, i.e. we return it at 5 p.m. on Friday", "normal")).toBe(
      "iPhone repairs take 2 days, i.e. we return it at 5 p.m. on Friday.",
    );
  });

  it("expands Spanish-only spellings only in Spanish", () => {
    expect(polish("press q to quit the app , then restart it", "normal")).toBe("Press q to quit the app, then restart it.");
    expect(polish("dime q necesitas y te ayudo", "normal")).toBe("Dime que necesitas y te ayudo.");
    expect(polish("u can pick it up tmrw", "normal")).toBe("You can pick it up tomorrow.");
    expect(polish("siete u ocho días", "normal")).toBe("Siete u ocho días.");
  });

  it("writes xq/pq as “por qué” when they open a question and “porque” otherwise", () => {
    expect(polish("¿xq no llegó?", "normal")).toBe("¿Por qué no llegó?");
    expect(polish("pq no me avisaron?", "normal")).toBe("¿Por qué no me avisaron?");
    expect(polish("no llegó xq hubo paro", "normal")).toBe("No llegó porque hubo paro.");
    expect(polish("¿sabes dnd está mi paquete?", "normal")).toBe("¿Sabes dónde está mi paquete?");
    expect(polish("x favor envíame el msj, tmb la foto", "normal")).toBe("Por favor envíame el mensaje, también la foto.");
  });

  it("fixes “your welcome” only when it means “you're welcome”", () => {
    expect(polish("ur welcome! your welcome pack ships 2day", "normal")).toBe("You're welcome! Your welcome pack ships today.");
  });

  it("returns an empty string for empty input in every style", () => {
    for (const style of polishStyles) expect(polish("  \n\n ", style)).toBe("");
  });

  it("concise keeps a message made only of courtesy instead of emptying it", () => {
    expect(polish("Thanks so much!", "concise")).toBe("Thanks so much!");
  });

  it("concise keeps the customer's name from the greeting and the agent's name from the signature", () => {
    expect(polish("Hi Maria,\n\nI just wanted to let you know that your parcel left our warehouse.\n\nThanks,\nAna", "concise")).toBe(
      "Maria, your parcel left our warehouse.\n\n— Ana",
    );
  });

  it("concise turns a hedged request into a direct one", () => {
    expect(polish("I was wondering if you could send a photo of the label.", "concise")).toBe("Please send a photo of the label.");
  });

  it("concise never drops a courtesy sentence that names someone", () => {
    expect(polish("Your refund is on its way. Thanks so much, Maria!", "concise")).toBe(
      "Your refund is on its way. Thanks so much, Maria!",
    );
  });

  it("explanatory without a business name speaks for the team", () => {
    const output = polish("ur order shipped", "explanatory", null);
    expect(output).toBe("Hello, thank you for contacting us.\n\nYour order shipped.\n\nIf you have any other questions, we're happy to help.");
    expect(output).not.toMatch(/null|undefined/);
  });

  it("explanatory adds the thanks after an existing greeting instead of a second greeting", () => {
    expect(polish("Hi Maria, ur order shipped today.", "explanatory")).toBe(
      "Hi Maria, thank you for contacting Acme. Your order shipped today.\n\nIf you have any other questions, we're happy to help.\n— Acme team",
    );
  });

  it("explanatory does not repeat an opening or closing that is already there", () => {
    const text =
      "Hello, thank you for contacting Acme.\n\nYour order shipped today.\n\nIf you have any other questions, we're happy to help.\n— Acme team";
    expect(polish(text, "explanatory")).toBe(text);
    expect(polish("Hi Maria, thanks for reaching out! Your order shipped. Let me know if anything is missing.", "explanatory")).toBe(
      "Hi Maria, thanks for reaching out! Your order shipped. Let me know if anything is missing.\n— Acme team",
    );
  });

  it("explanatory signs under an existing sign-off with the business name", () => {
    expect(polish("Your order shipped.\n\nBest regards,\nAna", "explanatory")).toBe(
      "Hello, thank you for contacting Acme.\n\nYour order shipped.\n\nIf you have any other questions, we're happy to help.\n\nBest regards,\nAna\nAcme",
    );
  });

  it("explanatory writes Spanish courtesy for Spanish text, formal when the reply is formal", () => {
    expect(polish("tu pedido sale hoy", "explanatory")).toBe(
      "Hola, gracias por contactar con Acme.\n\nTu pedido sale hoy.\n\nSi tienes cualquier otra pregunta, estaremos encantados de ayudarte.\n— Equipo de Acme",
    );
    expect(polish("Estimado cliente, su pedido sale hoy.", "explanatory")).toBe(
      "Estimado cliente, gracias por contactar con Acme. Su pedido sale hoy.\n\nSi tiene cualquier otra pregunta, estaremos encantados de ayudarle.\n— Equipo de Acme",
    );
  });

  it("keeps a lower-case business name as written", () => {
    const output = polish("hi, ur order from acme shipped", "explanatory", "acme");
    expect(output).toContain("thank you for contacting acme.");
    expect(output).toContain("Your order from acme shipped.");
    expect(output.endsWith("— acme team")).toBe(true);
    expect(polish(output, "explanatory", "acme")).toBe(output);
  });

  it("stays idempotent when samples are combined", () => {
    for (let index = 0; index < samples.length; index++) {
      const text = `${samples[index].text}\n\n${samples[(index + 1) % samples.length].text}`;
      for (const style of polishStyles) {
        const once = polish(text, style);
        expect(polish(once, style), `${style}: ${text}`).toBe(once);
      }
    }
  });
});
