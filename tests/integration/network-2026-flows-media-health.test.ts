import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { systemContext } from "@/lib/server/context";
import * as webhookRoute from "@/app/api/network/webhook/route";
import * as numberRoute from "@/app/v1/config/number/route";
import * as messageRoute from "@/app/v1/messages/[id]/route";
import * as messagesRoute from "@/app/v1/messages/route";
import * as sandboxInboundRoute from "@/app/api/sandbox/inbound/route";
import * as notificationsRoute from "@/app/v1/notifications/route";
import { drainJobs } from "@/lib/jobs/runner";
import { jobRegistry } from "@/lib/server/job-registry";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { call } from "@/tests/support/api";
import {
  buildInboundPayload,
  buildQualityUpdatePayload,
  type FakeCloudNetwork,
  signHubPayload,
  startFakeCloudNetwork,
} from "@/tests/support/fake-cloud-network";
import { setEnv } from "@/tests/support/env-vars";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { countRows, eventsOf, JPEG, MP4, nextPhone, OGG, PDF } from "@/tests/support/messaging";

const ACCESS_TOKEN = "EAAG-fake-network-token-flows";
const APP_SECRET = "fake-app-secret-for-flows-01234";
let seq = 0;
let network: FakeCloudNetwork;
let account: Awaited<ReturnType<typeof createTestAccount>>;
let agentToken: string;
const send = (body: unknown, token = account.adminToken) => call(messagesRoute.POST, { method: "POST", path: "/v1/messages", token, body });

let restoreEnv: () => void;
beforeAll(() => {
  restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true" });
});
afterAll(() => restoreEnv());

beforeEach(async () => {
  resetRateLimiters();
  network = await startFakeCloudNetwork({ accessToken: ACCESS_TOKEN, phoneNumberId: `50654035224${String(++seq).padStart(4, "0")}` });
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
      verify_token: `flows-verify-${seq}`,
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

describe("WhatsApp Flows", () => {
  it("sends a published flow as the network's flow message and keeps the customer's answers as flow_response", async () => {
    const customer = nextPhone();
    await receiveText(customer, "wamid.HELLO1", "I'd like to book a visit");
    const res = await send({ to: customer, type: "interactive", interactive: { type: "flow", flow_id: "1197715005513101", cta: "Book now", body: "Pick a time for your visit.", screen: "BOOKING" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: "interactive", interactive: { type: "flow", flow_id: "1197715005513101", cta: "Book now", body: "Pick a time for your visit." } });
    await drainJobs(systemContext(), jobRegistry);

    const sent = network.acceptedMessages.at(-1)!;
    expect(sent.type).toBe("interactive");
    expect(sent.body).toMatchObject({
      messaging_product: "whatsapp",
      to: customer,
      type: "interactive",
      interactive: {
        type: "flow",
        body: { text: "Pick a time for your visit." },
        action: {
          name: "flow",
          parameters: {
            flow_message_version: "3",
            flow_id: "1197715005513101",
            flow_cta: "Book now",
            flow_token: res.body.id,
            flow_action: "navigate",
            flow_action_payload: { screen: "BOOKING" },
          },
        },
      },
    });
    expect((await getMessage(res.body.id, account.adminToken)).body.status).toBe("sent");

    // The customer submits the flow: an nfm_reply whose response_json holds the answers.
    const answers = { flow_token: res.body.id, visit_date: "2026-12-01", people: 2, newsletter: true };
    await post(
      buildInboundPayload({
        phoneNumberId: network.phoneNumberId,
        messages: [
          {
            from: customer,
            id: "wamid.FLOW1",
            type: "interactive",
            payload: { type: "nfm_reply", nfm_reply: { name: "flow", body: "Sent", response_json: JSON.stringify(answers) } },
            contextId: "wamid.any",
          },
        ],
      }),
    );
    const received = (await eventsOf(account.account.id, "message.received")).map((e) => (e.data as { message: Record<string, unknown> }).message);
    const answer = received.find((m) => m.type === "interactive")!;
    expect(answer).toMatchObject({ direction: "inbound", type: "interactive", flow_response: { name: "flow", body: "Sent", data: answers } });
    const asAgent = await getMessage(String(answer.id), agentToken);
    expect(asAgent.body.flow_response).toEqual({ name: "flow", body: "Sent", data: answers });
  });

  it("sends a flow without a screen without flow_action, as the network then opens the first screen", async () => {
    const customer = nextPhone();
    await receiveText(customer, "wamid.HELLO2", "hi");
    const res = await send({ to: customer, type: "interactive", interactive: { type: "flow", flow_id: "42", cta: "Sign up", body: "Join our plant club", flow_token: "club-42" } });
    expect(res.status).toBe(201);
    await drainJobs(systemContext(), jobRegistry);
    const parameters = ((network.acceptedMessages.at(-1)!.body.interactive as Record<string, unknown>).action as Record<string, unknown>).parameters;
    expect(parameters).toEqual({ flow_message_version: "3", flow_id: "42", flow_cta: "Sign up", flow_token: "club-42" });
  });

  it("refuses a flow the network would refuse, naming the field, and sends nothing", async () => {
    const customer = nextPhone();
    await receiveText(customer, "wamid.HELLO3", "hi");
    const tooLong = await send({ to: customer, type: "interactive", interactive: { type: "flow", flow_id: "42", cta: "A button label far too long", body: "x" } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: "interactive.cta" })]));
    const noId = await send({ to: customer, type: "interactive", interactive: { type: "flow", cta: "Go", body: "x" } });
    expect(noId.status).toBe(400);
    expect(noId.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: "interactive.flow_id" })]));
    await drainJobs(systemContext(), jobRegistry);
    expect(network.acceptedMessages).toHaveLength(0);
  });

  it("skips a flow answer whose response_json is not a JSON object (logged by code)", async () => {
    const customer = nextPhone();
    await post(
      buildInboundPayload({
        phoneNumberId: network.phoneNumberId,
        messages: [{ from: customer, id: "wamid.FLOWBAD", type: "interactive", payload: { type: "nfm_reply", nfm_reply: { name: "flow", body: "Sent", response_json: "not json" } } }],
      }),
    );
    expect(await eventsOf(account.account.id, "message.received")).toHaveLength(0);
  });
});

const MiB = 1024 * 1024;
const padded = (head: Buffer, size: number) => Buffer.concat([head, Buffer.alloc(size - head.length, 1)]);
/** A WebP sticker of `size` bytes; animated ones have a VP8X header with the animation flag. */
const webp = (size: number, animated: boolean) =>
  padded(Buffer.concat([Buffer.from("RIFF"), Buffer.from([0, 0, 0, 0]), Buffer.from(animated ? "WEBPVP8X" : "WEBPVP8L"), Buffer.from([10, 0, 0, 0, animated ? 0x02 : 0])]), size);

describe("the network's media limits", () => {
  const cases: [string, string, Buffer, number, string][] = [
    ["image", "image/jpeg", JPEG, 5 * MiB, "Images can be at most 5 MB"],
    ["audio", "audio/ogg", OGG, 16 * MiB, "Audio files can be at most 16 MB"],
    ["video", "video/mp4", MP4, 16 * MiB, "Videos can be at most 16 MB"],
  ];

  it.each(cases)("a %s over its limit is a 413 media_too_large naming the limit, and nothing is stored or sent", async (type, mime, head, limit, words) => {
    const customer = nextPhone();
    await receiveText(customer, `wamid.LIM-${type}`, "hi");
    const before = await countRows(account.account.id);
    const res = await send({ to: customer, type, media: { mime_type: mime, data: padded(head, limit + 1).toString("base64") } });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("media_too_large");
    expect(res.body.error.message).toContain(words);
    expect(res.body.error.details).toEqual([expect.objectContaining({ path: "media.data" })]);
    expect(await countRows(account.account.id)).toEqual(before);
    await drainJobs(systemContext(), jobRegistry);
    expect(network.acceptedMessages).toHaveLength(0);
  });

  it("a document over what the JSON body can carry is a 413 payload_too_large (the 100 MB network limit cannot be reached through JSON)", async () => {
    const customer = nextPhone();
    await receiveText(customer, "wamid.LIM-doc", "hi");
    const data = padded(PDF, 25 * MiB).toString("base64");
    const res = await send({ to: customer, type: "document", media: { mime_type: "application/pdf", filename: "big.pdf", data } });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
  });

  it("a 21 MB document (under the network's 100 MB) is accepted", async () => {
    const customer = nextPhone();
    await receiveText(customer, "wamid.LIM-doc21", "hi");
    const res = await send({ to: customer, type: "document", media: { mime_type: "application/pdf", filename: "catalogue.pdf", data: padded(PDF, 21 * MiB).toString("base64") } });
    expect(res.status).toBe(201);
    expect(res.body.media).toMatchObject({ size: 21 * MiB });
  }, 120_000);

  it("stickers: 100 KB static, 500 KB animated (simulated customer)", async () => {
    const sandbox = await createTestAccount();
    const simulate = (bytes: Buffer) =>
      call(sandboxInboundRoute.POST, { method: "POST", path: "/api/sandbox/inbound", token: sandbox.adminToken, body: { from: nextPhone(), type: "sticker", media: { mime_type: "image/webp", data: bytes.toString("base64") } } });
    const bigStatic = await simulate(webp(100 * 1024 + 1, false));
    expect(bigStatic.status).toBe(413);
    expect(bigStatic.body.error).toMatchObject({ code: "media_too_large", message: expect.stringContaining("Stickers can be at most 100 KB") });
    expect((await simulate(webp(100 * 1024, false))).status).toBe(201);
    expect((await simulate(webp(400 * 1024, true))).status).toBe(201);
    const bigAnimated = await simulate(webp(500 * 1024 + 1, true));
    expect(bigAnimated.status).toBe(413);
    expect(bigAnimated.body.error.message).toContain("Animated stickers can be at most 500 KB");
  });
});

describe("number health", () => {
  const phone = () => `1415555${String(1000 + seq).slice(-4)}`;
  async function connectOwnNumber() {
    const number = phone();
    const res = await call(numberRoute.PUT, {
      method: "PUT",
      path: "/v1/config/number",
      token: account.adminToken,
      body: {
        provider: "cloud",
        phone_number: `+${number}`,
        phone_number_id: network.phoneNumberId,
        business_account_id: "102290129340398",
        access_token: ACCESS_TOKEN,
        app_secret: APP_SECRET,
        verify_token: `health-verify-${seq}`,
        api_base_url: network.apiBaseUrl,
      },
    });
    expect(res.status).toBe(200);
    return number;
  }
  const numberConfig = async () => (await call(numberRoute.GET, { path: "/v1/config/number", token: account.adminToken })).body;
  const notificationsOf = async (token: string) => (await call(notificationsRoute.GET, { path: "/v1/notifications", token })).body.data as { type: string; text: string | null; conversation_id: string | null }[];

  it("a quality webhook updates the number's rating and limit, and a drop notifies admins (not agents)", async () => {
    const number = await connectOwnNumber();
    expect(await numberConfig()).toMatchObject({ quality_rating: null, messaging_limit_tier: null, health_updated_at: null });

    expect((await post(buildQualityUpdatePayload({ displayPhoneNumber: number, event: "UPGRADE", oldLimit: "TIER_1K", currentLimit: "TIER_10K" }))).status).toBe(200);
    expect(await numberConfig()).toMatchObject({ messaging_limit_tier: "TIER_10K", health_updated_at: expect.any(String) });
    expect(await notificationsOf(account.adminToken)).toHaveLength(0);

    expect((await post(buildQualityUpdatePayload({ displayPhoneNumber: number, event: "FLAGGED", currentLimit: "TIER_10K" }))).status).toBe(200);
    expect(await numberConfig()).toMatchObject({ quality_rating: "RED", messaging_limit_tier: "TIER_10K" });
    const [flagged] = await notificationsOf(account.adminToken);
    expect(flagged).toMatchObject({ type: "number_health", conversation_id: null, text: expect.stringContaining("quality rating dropped to low") });
    expect(await notificationsOf(agentToken)).toHaveLength(0);

    expect((await post(buildQualityUpdatePayload({ displayPhoneNumber: number, event: "DOWNGRADE", oldLimit: "TIER_10K", currentLimit: "TIER_1K" }))).status).toBe(200);
    expect(await numberConfig()).toMatchObject({ quality_rating: "RED", messaging_limit_tier: "TIER_1K" });
    const list = await notificationsOf(account.adminToken);
    expect(list).toHaveLength(2);
    expect(list[0].text).toContain("messaging limit lowered to 1,000 customers a day");

    // Recovery is shown but alerts nobody.
    expect((await post(buildQualityUpdatePayload({ displayPhoneNumber: number, event: "UNFLAGGED", currentLimit: "TIER_1K" }))).status).toBe(200);
    expect(await numberConfig()).toMatchObject({ quality_rating: "GREEN" });
    expect(await notificationsOf(account.adminToken)).toHaveLength(2);
  });

  it("a quality webhook with a bad signature changes nothing", async () => {
    const number = await connectOwnNumber();
    const rawBody = JSON.stringify(buildQualityUpdatePayload({ displayPhoneNumber: number, event: "FLAGGED", currentLimit: "TIER_250" }));
    const res = await call(webhookRoute.POST, {
      method: "POST",
      path: "/api/network/webhook",
      rawBody,
      headers: { "content-type": "application/json", "x-hub-signature-256": signHubPayload({ appSecret: "not-the-app-secret-000", rawBody }) },
    });
    expect(res.status).toBe(401);
    expect(await numberConfig()).toMatchObject({ quality_rating: null, messaging_limit_tier: null });
    expect(await notificationsOf(account.adminToken)).toHaveLength(0);
  });
});
