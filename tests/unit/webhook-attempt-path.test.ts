import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// One way a webhook delivery is attempted (the runner's job, an Inngest step and a manual
// "retry now" each go through it), and the webhooks domain's queries in its store.
const root = path.resolve(import.meta.dirname, "../..");

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (/\.(ts|tsx|mjs)$/.test(entry.name)) yield path.relative(root, full);
  }
}

const read = (file: string) => readFileSync(path.join(root, file), "utf8");

describe("webhook attempts", () => {
  it("are sent from one place (besides the verification challenge, which is not a delivery)", () => {
    const senders = ["lib", "inngest", "app"].flatMap((dir) => [...sources(path.join(root, dir))]).filter((file) => /\bsendSigned\(/.test(read(file)));
    expect(senders.filter((file) => file !== "lib/webhooks/send.ts").sort()).toEqual(["lib/webhooks/attempt-delivery.ts", "lib/webhooks/verify-webhook.ts"]);
  });

  it("are asked for through attemptDelivery / attemptDeliveries only", () => {
    const exported = read("lib/webhooks/attempt-delivery.ts").match(/^export (?:async )?function (\w+)/gm);
    expect(exported).toEqual(["export function attemptDeliveries", "export async function attemptDelivery"]);
  });

  it("leave every query of the webhooks domain to lib/webhooks/store.ts", () => {
    const querying = [...sources(path.join(root, "lib/webhooks"))]
      .filter((file) => file !== "lib/webhooks/store.ts")
      .filter((file) => /from "drizzle-orm|\.(select|insert|update|delete|execute)\(/.test(read(file)));
    expect(querying).toEqual([]);
  });
});
