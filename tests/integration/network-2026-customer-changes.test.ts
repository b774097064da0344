import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { systemContext } from "@/lib/server/context";
import * as webhookRoute from "@/app/api/network/webhook/route";
import * as numberRoute from "@/app/v1/config/number/route";
import * as messageRoute from "@/app/v1/messages/[id]/route";
import * as threadRoute from "@/app/v1/conversations/[id]/messages/route";
import { drainJobs } from "@/lib/jobs/runner";
import { jobRegistry } from "@/lib/server/job-registry";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { call } from "@/tests/support/api";
import {
  buildEditPayload,
  buildInboundPayload,
  buildRevokePayload,
  type FakeCloudNetwork,
  signHubPayload,
  startFakeCloudNetwork,
} from "@/tests/support/fake-cloud-network";
import { setEnv } from "@/tests/support/env-vars";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { eventsOf, nextPhone } from "@/tests/support/messaging";

const ACCESS_TOKEN = "EAAG-fake-network-token-changes";
const APP_SECRET = "fake-app-secret-for-changes-0123";
let seq = 0;
let network: FakeCloudNetwork;
let account: Awaited<ReturnType<typeof createTestAccount>>;
let agentToken: string;

let restoreEnv: () => void;
beforeAll(() => {
  restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true" });
});
afterAll(() => restoreEnv());

beforeEach(async () => {
  resetRateLimiters();
  network = await startFakeCloudNetwork({ accessToken: ACCESS_TOKEN, phoneNumberId: `40654035224${String(++seq).padStart(4, "0")}` });
  account = await createTestAccount();
  agentToken = (await addTestUser(account.account.id, "agent")).token;
  const res = await call(numberRoute.PUT, {
    method: "PUT",
    path: "/v1/config/number",
    token: account.adminToken,
    body: {
      provider: "cloud",
      phone_number: "+14155552671",
      phone_number_id: network.phoneNumberId,
      business_account_id: "102290129340398",
      access_token: ACCESS_TOKEN,
      app_secret: APP_SECRET,
      verify_token: `changes-verify-${seq}`,
      api_base_url: network.apiBaseUrl,
    },
  });
  expect(res.status).toBe(200);
});

afterEach(async () => {
  await network.close();
});

function post(payload: unknown) {
  const rawBody = JSON.stringify(payload);
  return call(webhookRoute.POST, {
    method: "POST",
    path: "/api/network/webhook",
    rawBody,
    headers: { "content-type": "application/json", "x-hub-signature-256": signHubPayload({ appSecret: APP_SECRET, rawBody }) },
  });
}

const getMessage = (id: string, token: string) => call(messageRoute.GET, { path: `/v1/messages/${id}`, token, params: { id } });

async function receiveText(customer: string, networkId: string, text: string) {
  expect((await post(buildInboundPayload({ phoneNumberId: network.phoneNumberId, messages: [{ from: customer, id: networkId, type: "text", text }] }))).status).toBe(200);
  const [received] = (await eventsOf(account.account.id, "message.received")).filter(
    (e) => (e.data as { message: { text?: string } }).message.text === text,
  );
  return (received.data as { message: { id: string; conversation_id: string } }).message;
}

describe("a customer's edits and deletions", () => {
  it("a customer known only by a business-scoped user id edits by that id; another id cannot, nor a notification naming nobody", async () => {
    const userId = "US.13491208655302741918";
    expect(
      (await post(buildInboundPayload({ phoneNumberId: network.phoneNumberId, messages: [{ from: "", fromUserId: userId, username: "fern.fan", id: "wamid.BSUID1", type: "text", text: "2 cactus please" }] }))).status,
    ).toBe(200);
    const [received] = await eventsOf(account.account.id, "message.received");
    const message = (received.data as { message: { id: string } }).message;
    const withSender = (payload: Record<string, unknown>, sender: string | null) => {
      const json = JSON.stringify(payload).replace(/"from":"[^"]*",?/g, "");
      const parsed = JSON.parse(json) as { entry: { changes: { value: { messages: Record<string, unknown>[] } }[] }[] };
      if (sender) parsed.entry[0].changes[0].value.messages[0].from_user_id = sender;
      return parsed;
    };
    const edit = (id: string, text: string, sender: string | null) =>
      withSender(buildEditPayload({ phoneNumberId: network.phoneNumberId, from: "", originalId: "wamid.BSUID1", text, id }), sender);

    expect((await post(edit("wamid.BSUIDEDIT0", "20 cactus please", null))).status).toBe(200);
    expect((await post(edit("wamid.BSUIDEDIT1", "200 cactus please", "US.99999999999999999999"))).status).toBe(200);
    expect((await getMessage(message.id, account.adminToken)).body).toMatchObject({ text: "2 cactus please" });

    expect((await post(edit("wamid.BSUIDEDIT2", "3 cactus please", userId))).status).toBe(200);
    expect((await getMessage(message.id, account.adminToken)).body).toMatchObject({ text: "3 cactus please", edited_at: expect.any(String) });
  });

  it("an edit changes the text, sets edited_at, emits message.updated once, and keeps the original for admins only", async () => {
    const customer = nextPhone();
    const message = await receiveText(customer, "wamid.ORIG1", "I need 2 pots");
    const edit = buildEditPayload({ phoneNumberId: network.phoneNumberId, from: customer, originalId: "wamid.ORIG1", text: "I need 3 pots", id: "wamid.EDIT1" });
    expect((await post(edit)).status).toBe(200);
    expect((await post(edit)).status).toBe(200); // redelivered: applied once

    const updated = await eventsOf(account.account.id, "message.updated");
    expect(updated).toHaveLength(1);
    const data = (updated[0].data as { message: Record<string, unknown> }).message;
    expect(data).toMatchObject({ id: message.id, text: "I need 3 pots", edited_at: expect.any(String) });
    expect(data).not.toHaveProperty("history");

    const asAdmin = await getMessage(message.id, account.adminToken);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body).toMatchObject({ text: "I need 3 pots", edited_at: expect.any(String), history: [{ text: "I need 2 pots", change: "edited", until: expect.any(String) }] });

    const asAgent = await getMessage(message.id, agentToken);
    expect(asAgent.status).toBe(200);
    expect(asAgent.body).toMatchObject({ text: "I need 3 pots", edited_at: expect.any(String) });
    expect(asAgent.body).not.toHaveProperty("history");
    expect(JSON.stringify(asAgent.body)).not.toContain("2 pots");

    // The thread (what agents load) shows the new text and no history either.
    const thread = await call(threadRoute.GET, { path: `/v1/conversations/${message.conversation_id}/messages`, token: agentToken, params: { id: message.conversation_id } });
    expect(thread.body.data[0]).toMatchObject({ id: message.id, text: "I need 3 pots" });
    expect(JSON.stringify(thread.body)).not.toContain("2 pots");
  });

  it("a deletion leaves a tombstone with deleted_at, emits message.deleted, and keeps the words for admins only", async () => {
    const customer = nextPhone();
    const message = await receiveText(customer, "wamid.ORIG2", "my card number is 4111");
    expect((await post(buildRevokePayload({ phoneNumberId: network.phoneNumberId, from: customer, originalId: "wamid.ORIG2", id: "wamid.REVOKE2" }))).status).toBe(200);

    const deleted = await eventsOf(account.account.id, "message.deleted");
    expect(deleted).toHaveLength(1);
    const data = (deleted[0].data as { message: Record<string, unknown> }).message;
    expect(data).toMatchObject({ id: message.id, deleted_at: expect.any(String) });
    expect(data).not.toHaveProperty("text");

    const asAgent = await getMessage(message.id, agentToken);
    expect(asAgent.body).toMatchObject({ deleted_at: expect.any(String) });
    expect(JSON.stringify(asAgent.body)).not.toContain("4111");

    const asAdmin = await getMessage(message.id, account.adminToken);
    expect(asAdmin.body).toMatchObject({ deleted_at: expect.any(String), history: [{ text: "my card number is 4111", change: "deleted" }] });
    expect(asAdmin.body).not.toHaveProperty("text");

    // An edit after the deletion changes nothing.
    await post(buildEditPayload({ phoneNumberId: network.phoneNumberId, from: customer, originalId: "wamid.ORIG2", text: "again", id: "wamid.EDIT2" }));
    expect(await eventsOf(account.account.id, "message.updated")).toHaveLength(0);
  });

  it("another customer cannot edit or delete someone else's message", async () => {
    const customer = nextPhone();
    const message = await receiveText(customer, "wamid.ORIG3", "hello there");
    await post(buildEditPayload({ phoneNumberId: network.phoneNumberId, from: nextPhone(), originalId: "wamid.ORIG3", text: "hijacked" }));
    await post(buildRevokePayload({ phoneNumberId: network.phoneNumberId, from: nextPhone(), originalId: "wamid.ORIG3" }));
    const asAdmin = await getMessage(message.id, account.adminToken);
    expect(asAdmin.body).toMatchObject({ text: "hello there" });
    expect(asAdmin.body).not.toHaveProperty("deleted_at");
    expect(await eventsOf(account.account.id, "message.updated")).toHaveLength(0);
    expect(await eventsOf(account.account.id, "message.deleted")).toHaveLength(0);
  });

  it("an edit of a media caption keeps the earlier caption for admins", async () => {
    const customer = nextPhone();
    const mediaId = network.addMedia({ bytes: Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), Buffer.alloc(32, 1)]), mimeType: "image/png" });
    await post(buildInboundPayload({ phoneNumberId: network.phoneNumberId, messages: [{ from: customer, id: "wamid.ORIG4", type: "image", media: { id: mediaId, mimeType: "image/png", caption: "blue pot" } }] }));
    // The media message is stored by the job runner once its file is fetched.
    await drainJobs(systemContext(), jobRegistry);
    const [event] = await eventsOf(account.account.id, "message.received");
    const received = (event.data as { message: { id: string } }).message;
    await post(buildEditPayload({ phoneNumberId: network.phoneNumberId, from: customer, originalId: "wamid.ORIG4", caption: "red pot", mediaType: "image" }));
    const asAdmin = await getMessage(received.id, account.adminToken);
    expect(asAdmin.body).toMatchObject({ media: { caption: "red pot" }, edited_at: expect.any(String), history: [{ caption: "blue pot", change: "edited" }] });
  });
});
