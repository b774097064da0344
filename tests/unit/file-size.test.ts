import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// No production source file is over 500 lines: a longer one holds more than one responsibility
// and is split by it (the tests, benchmarks and migrations are not production code).
const MAX_LINES = 500;
const root = path.resolve(import.meta.dirname, "../..");
const dirs = ["app", "components", "db", "i18n", "inngest", "lib", "scripts"];

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "migrations" && entry.name !== "node_modules") yield* sources(full);
    } else if (/\.(ts|tsx|mjs|js)$/.test(entry.name)) yield full;
  }
}

describe("file size", () => {
  it(`no production source file is over ${MAX_LINES} lines`, () => {
    const files = [...dirs.flatMap((dir) => [...sources(path.join(root, dir))]), path.join(root, "proxy.ts")];
    const long = files
      .map((file) => ({ file: path.relative(root, file), lines: readFileSync(file, "utf8").split("\n").length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
