import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Queries live in each domain's store (`lib/<domain>/store.ts`, or `store/` split by area): a verb
// keeps the rules, events and transactions and calls named store functions for its reads and
// writes. A file outside a store that uses the database modules and calls the query builder
// (`.select(`, `.insert(`, `.update(`, `.delete(`, `` sql` ``, `.execute(`) is a verb still writing
// its queries inline, and fails here. The plumbing under and above the domains (lib/platform,
// lib/jobs, lib/server) keeps its own SQL.
const elsewhere = /^lib\/(server|jobs|platform)\//;

const root = path.resolve(import.meta.dirname, "../..");

// A store is `lib/<domain>/store.ts` or anything under `lib/<domain>/store/`.
const isStore = (file: string) => /^lib\/[^/]+\/(store\.ts|store\/)/.test(file);
// The database modules, imported for values (not only types): what a query needs.
const usesDatabase = /^import (?!type )[^;]*from "(drizzle-orm|@\/db|@\/db\/schema)";/m;
const queryBuilder = /\.(select|insert|update|delete|execute)\(|sql`/;

describe("store queries", () => {
  it("no verb writes its queries inline", () => {
    const inline = readdirSync(path.join(root, "lib"), { recursive: true, encoding: "utf8" })
      .filter((name) => /\.(ts|tsx|mjs)$/.test(name))
      .map((name) => path.join("lib", name).split(path.sep).join("/"))
      .filter((file) => !elsewhere.test(file) && !isStore(file))
      .filter((file) => {
        const text = readFileSync(path.join(root, file), "utf8");
        return usesDatabase.test(text) && queryBuilder.test(text);
      });
    expect(inline).toEqual([]);
  });
});
