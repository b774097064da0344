import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "@/lib/platform/csv";

describe("the CSV writer of every export", () => {
  it("quotes a cell holding a comma, semicolon, quote or line break", () => {
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell("a;b")).toBe('"a;b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("one\ntwo")).toBe('"one\ntwo"');
    expect(csvCell("one\r\ntwo")).toBe('"one\r\ntwo"');
    expect(csvCell("plain")).toBe("plain");
  });

  it("puts an apostrophe before a cell starting with =, +, -, @, tab or CR, whatever its column", () => {
    for (const start of ["=", "+", "-", "@", "\t", "\r"]) expect(csvCell(`${start}1`)).toMatch(/^"?'/);
    expect(csvCell("=SUM(A1:A2)")).toBe("'=SUM(A1:A2)");
    expect(csvCell("+34 600")).toBe("'+34 600");
    expect(csvCell("\tx")).toBe("'\tx");
    expect(csvCell("\rx")).toBe(`"'\rx"`);
    expect(csvCell("=1,2")).toBe(`"'=1,2"`);
    expect(csvCell(-5)).toBe("'-5");
    expect(csvCell("a=b")).toBe("a=b");
  });

  it("writes empty cells for null and undefined, and CRLF after each record", () => {
    expect(csvLine(["id", null, undefined, 3, false])).toBe("id,,,3,false\r\n");
  });
});
