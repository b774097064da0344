import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// What may live on globalThis: a true process singleton (one database handle, one LISTEN hub,
// one set of counters…), kept there because Next.js bundles each route and action separately
// and a module-level value would exist once per bundle. Wiring between layers goes by import
// (recording an event writes its deliveries and push job itself; the job runner knows its
// sources; the automation rules travel in the verb context).
const allowed = new Map([
  ["__chorusDb", "db/index.ts"],
  ["__chorusEarlyDb", "db/pglite-early.mjs"],
  ["__chorusStarted", "lib/server/start.ts"],
  ["__chorusServing", "lib/server/start.ts"],
  ["__chorusFirstAnswer", "lib/server/background.ts"],
  ["__chorusRequestHook", "lib/platform/http/request-hook.ts"],
  ["__chorusLimiters", "lib/platform/rate-limit.ts"],
  ["__chorusTokenCache", "lib/auth/token-cache.ts"],
  ["__chorusEventHub", "lib/events/hub.ts"],
  ["__chorusPresence", "lib/events/presence.ts"],
  ["__chorusPresenceShared", "lib/events/presence.ts"],
  ["__chorusEventStream", "lib/server/event-stream.ts"],
]);

const root = path.resolve(import.meta.dirname, "../..");

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "migrations") yield* sources(full);
    } else if (/\.(ts|tsx|mjs)$/.test(entry.name)) yield full;
  }
}

describe("process singletons on globalThis", () => {
  const found = new Map<string, string>();
  const unexplained: string[] = [];
  for (const dir of ["lib", "db", "app", "components"]) {
    for (const file of sources(path.join(root, dir))) {
      const relative = path.relative(root, file);
      const lines = readFileSync(file, "utf8").split("\n");
      lines.forEach((line, i) => {
        if (!/globalThis\b/.test(line) || line.trim().startsWith("//")) return;
        for (const [, name] of line.matchAll(/(__chorus\w+)/g)) found.set(name, relative);
        // The comment just above says why this one value is per process.
        const above = lines.slice(Math.max(0, i - 6), i).join("\n");
        if (!/On globalThis|on globalThis/.test(above)) unexplained.push(`${relative}:${i + 1}`);
      });
    }
  }

  it("holds only the listed singletons, none of them a link between layers", () => {
    expect(Object.fromEntries(found)).toEqual(Object.fromEntries(allowed));
  });

  it("says next to each why it is one per process", () => {
    expect(unexplained).toEqual([]);
  });
});
