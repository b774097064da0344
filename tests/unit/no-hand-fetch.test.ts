import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The browser reaches the API (`/v1/...`) through `lib/client/api.ts` only: one place for the
// session's end, offline copies and error sentences. A `fetch(` elsewhere in components/ or
// lib/client/ is allowed only for a fixed address outside the API (the `/readyz` probe).
const root = path.resolve(import.meta.dirname, "../..");
const theClient = path.join(root, "lib/client/api.ts");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\/|(^|[^:"'`])\/\/.*$/gm, "$1");

/** Each `fetch(` call's first argument, as written. */
function fetchTargets(text: string): string[] {
  return [...withoutComments(text).matchAll(/(?:^|[^.\w])fetch\s*\(\s*([^,)]*)/gm)].map((match) => match[1].trim());
}

/** A literal address that is not the API's; anything else (a variable, `/v1/...`) may be the API. */
const outsideTheApi = (target: string) => /^["'`]\/(?!v1\b)[^"'`$]*["'`]$/.test(target);

function handFetchesOfTheApi(file: string, text: string): string[] {
  return fetchTargets(text)
    .filter((target) => !outsideTheApi(target))
    .map((target) => `${path.relative(root, file)}: fetch(${target}`);
}

describe("calls to the API from the browser", () => {
  it("the rule catches a hand fetch of /v1, and lets the readiness probe be", () => {
    expect(handFetchesOfTheApi(theClient, 'await fetch("/v1/push/subscriptions", { method })')).toHaveLength(1);
    expect(handFetchesOfTheApi(theClient, "await fetch(`/v1/conversations/${id}`)")).toHaveLength(1);
    expect(handFetchesOfTheApi(theClient, "await fetch(url)")).toHaveLength(1);
    expect(handFetchesOfTheApi(theClient, 'await fetch("/readyz", { cache: "no-store" })')).toEqual([]);
    expect(handFetchesOfTheApi(theClient, "// fetch(\"/v1/x\") in a comment\nprefetch(x); router.prefetch(y)")).toEqual([]);
  });

  it("no component and no client module but the one client calls fetch for /v1 by hand", () => {
    const all = [...files(path.join(root, "components")), ...files(path.join(root, "lib/client"))].filter((file) => file !== theClient);
    const offenders = all.flatMap((file) => handFetchesOfTheApi(file, readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });
});
