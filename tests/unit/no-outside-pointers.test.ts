import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// A comment or a doc states the rule itself: a reader of this repository has no "spec", no
// numbered section and no file beside the repository to look it up in.
const root = path.resolve(import.meta.dirname, "../..");
const self = path.relative(root, import.meta.filename);
const skipped = new Set(["node_modules", ".next", ".git", ".data", "test-results", "playwright-report", "messages"]);
const textFile = /\.(ts|tsx|mjs|js|md|css|sql|json|ya?ml|sh)$/;

const pointers: { name: string; pattern: RegExp }[] = [
  { name: "the contract file", pattern: /\bSPEC\b|\bSPEC\.md\b|\bDESIGN\.md\b/ },
  { name: "a document named only as 'the spec'", pattern: /\b(the|our|this) spec\b(?![.-]ts)/i },
  { name: "a numbered section of an outside document", pattern: /(?<!RFC \d{3,5} )\bsection \d+|§\s*\d/i },
  { name: "a path outside the repository", pattern: /\.\.\/shared\/|\/work\/(shared|wt|main)\b/ },
  { name: "an issue of another tracker", pattern: /\bissue[ #-]?\d+\b/i },
];

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skipped.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (textFile.test(entry.name) && entry.name !== "package-lock.json") yield full;
  }
}

describe("no comment or doc points outside the repository", () => {
  it("says the rule itself instead of citing a file, section or issue the reader does not have", () => {
    const found: string[] = [];
    for (const file of files(root)) {
      const relative = path.relative(root, file);
      if (relative === self || relative.startsWith("db/migrations/meta/")) continue;
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          for (const { name, pattern } of pointers) if (pattern.test(line)) found.push(`${relative}:${i + 1} (${name}): ${line.trim().slice(0, 120)}`);
        });
    }
    expect(found).toEqual([]);
  });
});
