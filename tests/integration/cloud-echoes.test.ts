import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as webhookRoute from "@/app/api/network/webhook/route";
import * as numberRoute from "@/app/v1/config/number/route";
import * as threadRoute from "@/app/v1/conversations/[id]/messages/route";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { call } from "@/tests/support/api";
import { type FakeCloudNetwork, signHubPayload, startFakeCloudNetwork } from "@/tests/support/fake-cloud-network";
import { setEnv } from "@/tests/support/env-vars";
import { createTestAccount } from "@/tests/support/fixtures";
import { countRows, eventsOf, nextPhone } from "@/tests/support/messaging";

const ACCESS_TOKEN = "EAAG-fake-network-token-echoes";
const APP_SECRET = "fake-app-secret-for-echoes-0123";
let seq = 0;
let network: FakeCloudNetwork;
let account: Awaited<ReturnType<typeof createTestAccount>>;

async function configure(coexistence: boolean) {
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
      verify_token: `echo-verify-${seq}`,
      api_base_url: network.apiBaseUrl,
      coexistence,
    },
  });
  expect(res.status).toBe(200);
}

// The fake network listens on loopback, which the URL policy allows only with this switch.
let restoreEnv: () => void;
beforeAll(() => {
  restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true" });
});
afterAll(() => restoreEnv());

beforeEach(async () => {
  resetRateLimiters();
  network = await startFakeCloudNetwork({ accessToken: ACCESS_TOKEN, phoneNumberId: `30654035224${String(++seq).padStart(4, "0")}` });
  account = await createTestAccount();
});

afterEach(async () => {
  await network.close();
});

/** What the network sends when the business answers from the business app (field smb_message_echoes). */
function echoes(list: Record<string, unknown>[]) {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "smb_message_echoes",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "14155552671", phone_number_id: network.phoneNumberId },
              message_echoes: list,
            },
          },
        ],
      },
    ],
  };
}

function post(payload: unknown, secret = APP_SECRET) {
  const rawBody = JSON.stringify(payload);
  return call(webhookRoute.POST, {
    method: "POST",
    path: "/api/network/webhook",
    rawBody,
    headers: { "content-type": "application/json", "x-hub-signature-256": signHubPayload({ appSecret: secret, rawBody }) },
  });
}

const textEcho = (to: string, id: string, body: string) => ({ from: "14155552671", to, id, timestamp: "1795000000", type: "text", text: { body } });

describe("coexistence: messages sent from the business app", () => {
  it("join the customer's conversation as sent outbound messages, once per network id", async () => {
    await configure(true);
    const customer = nextPhone();
    const payload = echoes([textEcho(customer, "wamid.ECHO1", "We open at 9 tomorrow")]);
    expect((await post(payload)).status).toBe(200);
    expect((await post(payload)).status).toBe(200);

    const [sent] = await eventsOf(account.account.id, "message.sent");
    const message = (sent.data as { message: Record<string, unknown> }).message;
    expect(message).toMatchObject({
      direction: "outbound",
      to: customer,
      type: "text",
      text: "We open at 9 tomorrow",
      status: "sent",
      sender: { type: "user" },
    });
    expect(message.sender).not.toHaveProperty("user_id");
    expect(await eventsOf(account.account.id, "message.sent")).toHaveLength(1);
    expect(await eventsOf(account.account.id, "conversation.created")).toHaveLength(1);

    const thread = await call(threadRoute.GET, {
      path: `/v1/conversations/${message.conversation_id}/messages`,
      token: account.adminToken,
      params: { id: String(message.conversation_id) },
    });
    expect(thread.status).toBe(200);
    expect(thread.body.data.map((m: { id: string }) => m.id)).toEqual([message.id]);
  });

  it("keeps a media echo as its kind with a note that the file stayed on the phone", async () => {
    await configure(true);
    const customer = nextPhone();
    await post(echoes([{ from: "14155552671", to: customer, id: "wamid.ECHO2", type: "image", image: { id: "m1", mime_type: "image/jpeg", caption: "Our shop" } }]));
    const [sent] = await eventsOf(account.account.id, "message.sent");
    const message = (sent.data as { message: Record<string, unknown> }).message;
    expect(message).toMatchObject({ type: "image", error: { code: "media_not_synced", message: expect.stringContaining("Our shop") } });
    expect(message).not.toHaveProperty("media");
  });

  it("are ignored while coexistence is off", async () => {
    await configure(false);
    const before = await countRows(account.account.id);
    expect((await post(echoes([textEcho(nextPhone(), "wamid.ECHO3", "hello")]))).status).toBe(200);
    expect(await countRows(account.account.id)).toEqual(before);
  });

  it("store nothing under a bad signature", async () => {
    await configure(true);
    const before = await countRows(account.account.id);
    expect((await post(echoes([textEcho(nextPhone(), "wamid.ECHO4", "hello")]), "another-app-secret-000")).status).toBe(401);
    expect(await countRows(account.account.id)).toEqual(before);
  });
});
