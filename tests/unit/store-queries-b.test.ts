import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Queries live in `lib/<domain>/store.ts`: a verb says what happens, its store says how the rows
// are read and written. For these domains, a file outside store.ts that builds a query (a select,
// insert, update or delete, raw SQL, or an execute) fails here, except the files listed, which are
// still being converted: the list only shrinks, and a converted file must leave it.
const domains = ["accounts", "api", "assistant", "audit", "auth", "events", "network", "oauth", "plants", "polish", "pricing", "profile", "push"];
const notYetConverted = new Set<string>([
  "lib/events/fan-out.ts",
  "lib/events/record-event.ts",
  "lib/profile/documents.ts",
  "lib/profile/knowledge.ts",
]);

// Drizzle's query builders and raw SQL; `.delete(`/`.update(` only on a table (not a Map or a hash).
const query = /\.select\(|\.insert\(|\.update\(\w+\)\s*\.set\(|\.delete\(\w+\)\s*\.(where|returning)\(|sql`|\.execute\(/;

const root = path.resolve(import.meta.dirname, "../..");

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (/\.(ts|tsx)$/.test(entry.name)) yield full;
  }
}

describe("queries in store.ts (accounts, api, assistant, audit, auth, events, network, oauth, plants, polish, pricing, profile, push)", () => {
  it("no file of these domains outside store.ts builds a query, beyond the files still being converted", () => {
    const files = domains.flatMap((domain) => [...sources(path.join(root, "lib", domain))].map((file) => path.relative(root, file)));
    const querying = files.filter((file) => path.basename(file) !== "store.ts" && query.test(readFileSync(path.join(root, file), "utf8")));
    expect(querying.filter((file) => !notYetConverted.has(file))).toEqual([]);
    expect([...notYetConverted].filter((file) => !querying.includes(file))).toEqual([]);
  });

  it("no store.ts of these domains is over 500 lines", () => {
    const stores = domains.map((domain) => path.join(root, "lib", domain, "store.ts")).filter((file) => {
      try {
        return readFileSync(file, "utf8").split("\n").length > 500;
      } catch {
        return false;
      }
    });
    expect(stores).toEqual([]);
  });
});
