import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as webhookRoute from "@/app/api/network/webhook/route";
import * as numberRoute from "@/app/v1/config/number/route";
import * as messageRoute from "@/app/v1/messages/[id]/route";
import * as searchRoute from "@/app/v1/search/route";
import { getDb, rowsOf } from "@/db";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { call } from "@/tests/support/api";
import { buildEditPayload, buildInboundPayload, buildRevokePayload, type FakeCloudNetwork, signHubPayload, startFakeCloudNetwork } from "@/tests/support/fake-cloud-network";
import { setEnv } from "@/tests/support/env-vars";
import { createTestAccount } from "@/tests/support/fixtures";
import { eventsOf, nextPhone } from "@/tests/support/messaging";

// Search reads a narrow copy of each message kept by triggers: whatever changes a message's
// words (a customer's edit, a customer's deletion, an agent's deletion) changes what search finds
// in the same transaction, and a status update leaves the copy alone.

const ACCESS_TOKEN = "EAAG-fake-network-token-search-rows";
const APP_SECRET = "fake-app-secret-for-search-rows-01";
let seq = 0;
let network: FakeCloudNetwork;
let account: Awaited<ReturnType<typeof createTestAccount>>;

let restoreEnv: () => void;
beforeAll(() => {
  restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true" });
});
afterAll(() => restoreEnv());

beforeEach(async () => {
  resetRateLimiters();
  network = await startFakeCloudNetwork({ accessToken: ACCESS_TOKEN, phoneNumberId: `40654035228${String(++seq).padStart(4, "0")}` });
  account = await createTestAccount();
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
      verify_token: `search-rows-verify-${seq}`,
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

async function receiveText(customer: string, networkId: string, text: string) {
  expect((await post(buildInboundPayload({ phoneNumberId: network.phoneNumberId, messages: [{ from: customer, id: networkId, type: "text", text }] }))).status).toBe(200);
  const [received] = (await eventsOf(account.account.id, "message.received")).filter((e) => (e.data as { message: { text?: string } }).message.text === text);
  return (received.data as { message: { id: string; conversation_id: string } }).message;
}

/** The message ids a search for `q` shows as the match of each conversation. */
async function found(q: string) {
  const res = await call(searchRoute.GET, { path: `/v1/search?q=${encodeURIComponent(q)}`, token: account.adminToken });
  expect(res.status).toBe(200);
  return (res.body as { data: { match: { field: string; message_id: string | null; snippet: string } }[] }).data
    .filter((hit) => hit.match.field === "message")
    .map((hit) => ({ id: hit.match.message_id, snippet: hit.match.snippet }));
}

describe("what search finds follows each message's words", () => {
  it("a customer's edit: the new words are found, the old ones no longer", async () => {
    const customer = nextPhone();
    const message = await receiveText(customer, "wamid.SROWS1", "Quiero tres macetas turquesa");
    expect(await found("turquesa")).toEqual([{ id: message.id, snippet: "Quiero tres macetas turquesa" }]);

    const edit = buildEditPayload({ phoneNumberId: network.phoneNumberId, from: customer, originalId: "wamid.SROWS1", text: "Quiero tres macetas bermellón", id: "wamid.SROWS1E" });
    expect((await post(edit)).status).toBe(200);
    expect(await found("turquesa")).toEqual([]);
    expect(await found("bermellon")).toEqual([{ id: message.id, snippet: "Quiero tres macetas bermellón" }]);
  });

  it("a customer's deletion: its words are found no more", async () => {
    const customer = nextPhone();
    const message = await receiveText(customer, "wamid.SROWS2", "mi tarjeta termina en 4111 zafiro");
    expect((await found("zafiro")).map((hit) => hit.id)).toEqual([message.id]);
    expect((await post(buildRevokePayload({ phoneNumberId: network.phoneNumberId, from: customer, originalId: "wamid.SROWS2", id: "wamid.SROWS2R" }))).status).toBe(200);
    expect(await found("zafiro")).toEqual([]);
    expect(await found("4111")).toEqual([]);
  });

  it("an agent's deletion: its words are found no more; a status update leaves the search row as it was", async () => {
    const customer = nextPhone();
    const message = await receiveText(customer, "wamid.SROWS3", "la dirección es calle Ámbar 12");
    expect((await found("ambar")).map((hit) => hit.id)).toEqual([message.id]);

    const row = async () =>
      rowsOf<{ ctid: string }>(await getDb().execute(sql`select ctid::text from message_search where message_id = ${message.id}`))[0]?.ctid ?? null;
    const before = await row();
    expect(before).not.toBeNull();
    // A change to what search does not read (here the status) writes no new search row.
    await getDb().execute(sql`update messages set status = 'read', updated_at = now() where id = ${message.id}`);
    expect(await row()).toBe(before);

    const res = await call(messageRoute.DELETE, { method: "DELETE", path: `/v1/messages/${message.id}`, token: account.adminToken, params: { id: message.id } });
    expect(res.status).toBeLessThan(300);
    expect(await found("ambar")).toEqual([]);
    expect(await row()).toBeNull();
  });

  it("a message deleted outright takes its search row along", async () => {
    const customer = nextPhone();
    const message = await receiveText(customer, "wamid.SROWS4", "palabra obsidiana");
    await getDb().execute(sql`delete from messages where id = ${message.id}`);
    const left = rowsOf<{ n: number }>(await getDb().execute(sql`select count(*)::int as n from message_search where message_id = ${message.id}`));
    expect(left[0].n).toBe(0);
  });
});
