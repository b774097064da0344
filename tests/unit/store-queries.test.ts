import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Queries live in each domain's store (`lib/<domain>/store.ts`, or `store/` split by area): a verb
// keeps the rules, events and transactions and calls named store functions for its reads and
// writes. A file outside a store that uses the database modules and calls the query builder
// (`.select(`, `.insert(`, `.update(`, `.delete(`, `` sql` ``, `.execute(`) is a verb still writing
// its queries inline. The files below are still being converted; the list only shrinks: a new
// such file fails here, and a converted file must leave the list. The plumbing under and above
// the domains (lib/platform, lib/jobs, lib/server) keeps its own SQL.
const elsewhere = /^lib\/(server|jobs|platform)\//;
const notYetConverted = new Set([
  "lib/campaigns/audience.ts",
  "lib/campaigns/campaigns.ts",
  "lib/campaigns/opt-out.ts",
  "lib/campaigns/prepare.ts",
  "lib/campaigns/send.ts",
  "lib/campaigns/settings.ts",
  "lib/reports/agents.ts",
  "lib/reports/durations.ts",
  "lib/reports/export.ts",
  "lib/reports/heatmap.ts",
  "lib/reports/query.ts",
  "lib/reports/record.ts",
  "lib/reports/rollups.ts",
  "lib/reports/spend.ts",
  "lib/reports/summary.ts",
  "lib/reports/timeseries.ts",
]);

const root = path.resolve(import.meta.dirname, "../..");

// A store is `lib/<domain>/store.ts` or anything under `lib/<domain>/store/`.
const isStore = (file: string) => /^lib\/[^/]+\/(store\.ts|store\/)/.test(file);
// The database modules, imported for values (not only types): what a query needs.
const usesDatabase = /^import (?!type )[^;]*from "(drizzle-orm|@\/db|@\/db\/schema)";/m;
const queryBuilder = /\.(select|insert|update|delete|execute)\(|sql`/;

describe("store queries", () => {
  it("no verb writes its queries inline, beyond the files still being converted", () => {
    const inline = readdirSync(path.join(root, "lib"), { recursive: true, encoding: "utf8" })
      .filter((name) => /\.(ts|tsx|mjs)$/.test(name))
      .map((name) => path.join("lib", name).split(path.sep).join("/"))
      .filter((file) => !elsewhere.test(file) && !isStore(file))
      .filter((file) => {
        const text = readFileSync(path.join(root, file), "utf8");
        return usesDatabase.test(text) && queryBuilder.test(text);
      });
    expect(inline.filter((file) => !notYetConverted.has(file))).toEqual([]);
    expect([...notYetConverted].filter((file) => !inline.includes(file))).toEqual([]);
  });
});
