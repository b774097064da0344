import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The inbox is what a phone loads first: what only settings, reports or the server need stays
// out of its JavaScript. This follows the runtime imports (not `import type`) of the inbox's
// client components through the app's own modules and lists the packages they reach.
const root = path.resolve(import.meta.dirname, "../..");
const HEAVY = ["zod", "libphonenumber-js", "recharts", "qrcode"];

function resolveLocal(from: string, specifier: string): string | undefined {
  const base = specifier.startsWith("@/") ? path.join(root, specifier.slice(2)) : path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

function runtimeImports(file: string): string[] {
  const source = readFileSync(file, "utf8");
  const specifiers: string[] = [];
  // Static imports and re-exports, except type-only ones; dynamic import() is a separate chunk.
  for (const match of source.matchAll(/^\s*(import|export)\s+(type\s+)?([^;]*?)\s+from\s+"([^"]+)"/gms)) {
    if (match[2]) continue;
    const names = match[3].trim();
    // `import { type A, type B } from` brings nothing at run time either.
    if (/^\{[^}]*\}$/.test(names) && names.slice(1, -1).split(",").every((name) => !name.trim() || name.trim().startsWith("type "))) continue;
    specifiers.push(match[4]);
  }
  for (const match of source.matchAll(/^\s*import\s+"([^"]+)"/gm)) specifiers.push(match[1]);
  return specifiers;
}

function packagesReached(entries: string[]): Map<string, string[]> {
  const reached = new Map<string, string[]>();
  const seen = new Set<string>();
  const visit = (file: string, trail: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of runtimeImports(file)) {
      if (specifier.startsWith("@/") || specifier.startsWith(".")) {
        const target = resolveLocal(file, specifier);
        if (target) visit(target, [...trail, path.relative(root, target)]);
      } else {
        const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];
        if (!reached.has(name)) reached.set(name, trail);
      }
    }
  };
  for (const entry of entries) visit(entry, [path.relative(root, entry)]);
  return reached;
}

const clientFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return clientFiles(full);
    return /\.tsx?$/.test(entry.name) && /^["']use client["']/.test(readFileSync(full, "utf8")) ? [full] : [];
  });

describe("the inbox's browser bundle", () => {
  it("reaches none of the packages only settings, reports or the server need", () => {
    const entries = [...clientFiles(path.join(root, "components/inbox")), ...clientFiles(path.join(root, "components/ui"))];
    expect(entries.length).toBeGreaterThan(10);
    const reached = packagesReached(entries);
    const heavy = HEAVY.filter((name) => reached.has(name)).map((name) => `${name} via ${reached.get(name)!.join(" → ")}`);
    expect(heavy).toEqual([]);
  });
});
