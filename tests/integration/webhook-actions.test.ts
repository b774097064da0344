import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ForbiddenError } from "@/lib/platform/errors";
import { setEnv } from "@/tests/support/env-vars";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { type WebhookReceiver, startReceiver } from "@/tests/support/webhook-receiver";

// The settings page's server actions: the signed-in session comes from the request cookie,
// which this test stands in for.
const session = vi.hoisted(() => ({ current: null as null | { accountId: string; user: { id: string; name: string; email: string; role: "admin" | "agent" } } }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("@/lib/auth/current-user", () => ({
  requireAdmin: async () => {
    if (session.current?.user.role !== "admin") throw new ForbiddenError("Only administrators can do this.");
    return session.current;
  },
}));

const actions = await import("@/app/(app)/settings/webhooks/actions");

let receiver: WebhookReceiver;
let restoreEnv: () => void;
beforeAll(async () => {
  restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true" });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  restoreEnv();
});

describe("settings → webhooks server actions", () => {
  it("create, verify, disable, enable and delete through the same verbs as the API", async () => {
    const { account, admin } = await createTestAccount();
    session.current = { accountId: account.id, user: admin };
    const created = await actions.createWebhookAction({ url: receiver.url, events: ["message.received"] });
    expect(created).toMatchObject({ ok: true, data: { status: "active", secret: expect.stringMatching(/^whsec_/) } });
    const id = (created as { ok: true; data: { id: string } }).data.id;
    expect(await actions.updateWebhookAction(id, { status: "disabled" })).toMatchObject({ ok: true, data: { status: "disabled" } });
    expect(await actions.updateWebhookAction(id, { status: "active" })).toMatchObject({ ok: true, data: { status: "active" } });
    expect(await actions.verifyWebhookAction(id)).toMatchObject({ ok: true, data: { status: "active" } });
    expect(await actions.deleteWebhookAction(id)).toEqual({ ok: true, data: { id } });
    expect(await actions.deleteWebhookAction(id)).toMatchObject({ ok: false, status: 404 });
  });

  it("turns invalid input into field errors", async () => {
    const { account, admin } = await createTestAccount();
    session.current = { accountId: account.id, user: admin };
    const result = await actions.createWebhookAction({ url: "", events: [], secret: "short" });
    expect(result).toMatchObject({ ok: false, status: 400, fieldErrors: { url: expect.any(String), events: expect.any(String), secret: expect.any(String) } });
  });

  it("answers 403 to an agent and changes nothing", async () => {
    const { account } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    session.current = { accountId: account.id, user: agent.user };
    const before = receiver.requests.length;
    expect(await actions.createWebhookAction({ url: receiver.url, events: ["*"] })).toMatchObject({ ok: false, status: 403, code: "forbidden" });
    expect(await actions.deleteWebhookAction("wh_x")).toMatchObject({ ok: false, status: 403 });
    expect(receiver.requests.length).toBe(before);
  });
});
