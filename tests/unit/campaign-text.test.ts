import { describe, expect, it } from "vitest";
import { optOutKeywordOf } from "@/lib/campaigns/opt-out";
import { parseCsv } from "@/lib/platform/csv-parse";

describe("opt-out keywords", () => {
  const keywords = ["STOP", "BAJA", "PARAR", "SAIR"];
  it("match a message that is exactly a keyword, ignoring case, accents, spaces and punctuation around it", () => {
    for (const text of ["STOP", "stop", " Stop! ", "baja", "BÁJA", "Sair.", "parar\n"]) expect(optOutKeywordOf(text, keywords), text).not.toBeNull();
    expect(optOutKeywordOf("Sáir", keywords)).toBe("SAIR");
  });
  it("do not match a sentence or a word that only contains one", () => {
    for (const text of ["please stop", "stopped", "BAJA YA", "", "!!", null, "x".repeat(100)]) expect(optOutKeywordOf(text, keywords), String(text)).toBeNull();
  });
  it("use the account's own list", () => {
    expect(optOutKeywordOf("cancelar", ["Cancelar"])).toBe("Cancelar");
    expect(optOutKeywordOf("stop", ["Cancelar"])).toBeNull();
  });
});

describe("parseCsv", () => {
  it("reads quoted cells with commas, quotes and line breaks, CRLF or LF, and numbers records by their first line", () => {
    const text = '\uFEFFphone,name\r\n+34 611,"Gómez, Ana"\n\n611,"She said ""hi""\nthere"\n612,last';
    expect(parseCsv(text)).toEqual([
      { line: 1, cells: ["phone", "name"] },
      { line: 2, cells: ["+34 611", "Gómez, Ana"] },
      { line: 4, cells: ["611", 'She said "hi"\nthere'] },
      { line: 6, cells: ["612", "last"] },
    ]);
  });
  it("keeps empty cells", () => {
    expect(parseCsv("a,,c\n,,\n")).toEqual([
      { line: 1, cells: ["a", "", "c"] },
      { line: 2, cells: ["", "", ""] },
    ]);
  });
});
