import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The inbox's components reach the API through `lib/client/api.ts` only (one place for the
// session's end, offline copies and error sentences), and stay files one can read in a sitting.
const root = path.resolve(import.meta.dirname, "../..");
const inbox = path.join(root, "components/inbox");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

describe("the inbox's data layer", () => {
  it("no inbox component calls fetch by hand", () => {
    const offenders = files(inbox).filter((file) => /(^|[^.\w])fetch\s*\(/m.test(readFileSync(file, "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "")));
    expect(offenders.map((file) => path.relative(root, file))).toEqual([]);
  });

  it("no inbox file is over 500 lines", () => {
    const long = files(inbox)
      .map((file) => ({ file: path.relative(root, file), lines: readFileSync(file, "utf8").split("\n").length }))
      .filter(({ lines }) => lines > 500);
    expect(long).toEqual([]);
  });
});
