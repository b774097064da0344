import { describe, expect, it } from "vitest";
import { ungroundedFacts } from "@/lib/assistant/grounding";
import { asksForPerson } from "@/lib/assistant/out-of-hours";

const passage = "El envío cuesta 9,90 euros y es gratis desde 50.000 pesos. Pedidos en https://www.viverosol.es/tienda/ o a hola@viverosol.es. Abrimos el 2 de enero.";

describe("the facts of an answer must be in the passages it cites", () => {
  it("accepts the passage's numbers, prices, dates and links however they are written", () => {
    expect(ungroundedFacts("Cuesta 9.90 euros, gratis desde 50000 pesos; pedí en viverosol.es/tienda o escribí a hola@viverosol.es. Abrimos el 2 de enero.", [passage])).toEqual([]);
    expect(ungroundedFacts("Sí, hacemos envíos.", [passage])).toEqual([]);
  });

  it.each([
    ["a price the business never wrote", "Cuesta 7,50 euros.", "7,50"],
    ["a changed price", "Cuesta 9,99 euros.", "9,99"],
    ["a quantity", "Llega en 24 horas.", "24"],
    ["a date", "Abrimos el 3 de enero.", "3"],
    ["a month", "Abrimos el 2 de febrero.", "febrero"],
    ["a link", "Mirá www.ofertas-plantas.com", "www.ofertas-plantas.com"],
    ["another page of the site", "Mirá https://viverosol.es/ofertas", "https://viverosol.es/ofertas"],
    ["an e-mail", "Escribí a ventas@viverosol.es", "ventas@viverosol.es"],
  ])("catches %s", (_case, answer, fact) => {
    expect(ungroundedFacts(answer, [passage])).toContain(fact);
  });

  it("does not count a number that is only part of a longer one (50 is not 50.000)", () => {
    expect(ungroundedFacts("Gratis desde 50 pesos.", [passage])).toEqual(["50"]);
  });

  it("reads decimal marks and thousands separators as the languages write them: 50,00 is never 5.000, 1,5 never 15", () => {
    const prices = "O vaso custa R$ 50,00 e a terra 1,5 kg.";
    expect(ungroundedFacts("O vaso custa R$ 5.000.", [prices])).toEqual(["5.000"]);
    expect(ungroundedFacts("A terra vem em 15 kg.", [prices])).toEqual(["15"]);
    expect(ungroundedFacts("O vaso custa R$ 50 e a terra 1.5 kg.", [prices])).toEqual([]);
  });

  it("takes \"may\" for a month only next to a day's number", () => {
    const returns = "Returns are accepted within 30 days. The spring sale starts on 5 May.";
    expect(ungroundedFacts("You may return it within 30 days.", [returns])).toEqual([]);
    expect(ungroundedFacts("The sale starts on May 5.", [returns])).toEqual([]);
    expect(ungroundedFacts("The sale starts on 7 May.", [returns])).toEqual(["7"]);
    expect(ungroundedFacts("You may return it within 30 days; the sale starts in June.", [returns])).toEqual(["June"]);
  });
});

describe("a customer asking for a person", () => {
  it.each(["quiero hablar con una persona", "Quero falar com um atendente", "human please", "Can I talk to a real person?", "me pasás con un asesor?", "preciso de um humano"])("%j", (text) => {
    expect(asksForPerson(text)).toBe(true);
  });
  it.each(["¿cuánto cuesta el envío?", "personalizado?", "quanto custa?", "do you sell humidifiers?"])("not %j", (text) => {
    expect(asksForPerson(text)).toBe(false);
  });
});
