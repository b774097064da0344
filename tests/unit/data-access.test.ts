import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// One data-access convention: a domain verb acts through the context it is handed (`ctx.db`, the
// pool or the caller's transaction) and never opens the database itself. The process's own
// plumbing, above the domains, may: the context factory and the entry points (lib/server) and the
// job runner (lib/jobs). Any other caller fails here.
const plumbing = /^lib\/(server|jobs)\//;

const root = path.resolve(import.meta.dirname, "../..");

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (/\.(ts|tsx|mjs)$/.test(entry.name)) yield full;
  }
}

const files = (dirs: string[]) => dirs.flatMap((dir) => [...sources(path.join(root, dir))].map((file) => path.relative(root, file)));

describe("data access", () => {
  it("no domain verb opens the database itself", () => {
    const callers = files(["lib"]).filter((file) => !plumbing.test(file) && /\bgetDb\(\)/.test(readFileSync(path.join(root, file), "utf8")));
    expect(callers).toEqual([]);
  });

  it("nothing is connected by importing a module for its side effects", () => {
    const sideEffects = files(["lib", "app", "components", "inngest", "scripts", "bench", "tests"]).filter((file) =>
      // A module of the application imported only to run it: the hidden wiring this rules out.
      /^import "@\/[^"]+";$/m.test(readFileSync(path.join(root, file), "utf8")),
    );
    expect(sideEffects).toEqual([]);
  });
});
