import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createCloudAdapter,
  downloadCloudMedia,
  NetworkRequestError,
  parseNotification,
  type UrlPolicy,
} from "@/lib/network/cloud";
import {
  buildInboundPayload,
  signHubPayload,
  startFakeCloudNetwork,
  type FakeCloudNetwork,
} from "@/tests/support/fake-cloud-network";

const ACCESS_TOKEN = "EAAG-test-access-token-123456";
const PHONE_NUMBER_ID = "106540352242922";
const PNG_BYTES = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const PDF_BYTES = Buffer.from("%PDF-1.7\n%test\n");

let network: FakeCloudNetwork;

beforeEach(async () => {
  network = await startFakeCloudNetwork({ accessToken: ACCESS_TOKEN, phoneNumberId: PHONE_NUMBER_ID });
});

afterEach(async () => {
  await network.close();
});

// The fake network listens on loopback, which only the development switch of the URL policy allows.
const LOOPBACK_ALLOWED: UrlPolicy = { allowInsecure: true };

function createAdapter(overrides: { accessToken?: string; apiBaseUrl?: string; timeoutMs?: number; urlPolicy?: UrlPolicy } = {}) {
  return createCloudAdapter({
    apiBaseUrl: network.apiBaseUrl,
    phoneNumberId: PHONE_NUMBER_ID,
    accessToken: ACCESS_TOKEN,
    urlPolicy: LOOPBACK_ALLOWED,
    ...overrides,
  });
}

async function findClosedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("sending through the cloud network", () => {
  it("sends a text message with the network's request shape and returns its message id", async () => {
    const result = await createAdapter().send({ to: "15551234567", type: "text", text: "Hello there" });

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.networkMessageId).toMatch(/^wamid\./);
    expect(network.requests).toHaveLength(1);
    const [request] = network.requests;
    expect(request.method).toBe("POST");
    expect(request.path).toBe(`/v21.0/${PHONE_NUMBER_ID}/messages`);
    expect(request.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    expect(request.headers["content-type"]).toContain("application/json");
    expect(request.body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "15551234567",
      type: "text",
      text: { body: "Hello there", preview_url: false },
    });
    expect(network.acceptedMessages.map((message) => message.id)).toEqual([result.networkMessageId]);
  });

  it("uploads image bytes first, then sends the message by the uploaded media id", async () => {
    const result = await createAdapter().send({
      to: "15551234567",
      type: "image",
      media: { mimeType: "image/png", bytes: PNG_BYTES, filename: "plant.png", caption: "Our fern" },
    });

    expect(result.ok).toBe(true);
    expect(network.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `POST /v21.0/${PHONE_NUMBER_ID}/media`,
      `POST /v21.0/${PHONE_NUMBER_ID}/messages`,
    ]);
    const [upload, send] = network.requests;
    expect(upload.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    expect(upload.body).toEqual({
      messaging_product: "whatsapp",
      type: "image/png",
      file: { filename: "plant.png", mimeType: "image/png", size: PNG_BYTES.length },
    });
    const sendBody = send.body as { type: string; image: { id: string; caption?: string } };
    expect(sendBody.type).toBe("image");
    expect(sendBody.image.caption).toBe("Our fern");
    expect(network.getMedia(sendBody.image.id)?.bytes.equals(PNG_BYTES)).toBe(true);
  });

  it("sends a document with its filename and audio without a caption", async () => {
    const adapter = createAdapter();
    const documentResult = await adapter.send({
      to: "15551234567",
      type: "document",
      media: { mimeType: "application/pdf", bytes: PDF_BYTES, filename: "care-guide.pdf", caption: "Care guide" },
    });
    const audioResult = await adapter.send({
      to: "15551234567",
      type: "audio",
      media: { mimeType: "audio/ogg", bytes: Buffer.from("OggS-test"), caption: "ignored" },
    });

    expect(documentResult.ok).toBe(true);
    expect(audioResult.ok).toBe(true);
    const [documentSend, audioSend] = network.acceptedMessages.map((message) => message.body);
    expect(documentSend.document).toMatchObject({ filename: "care-guide.pdf", caption: "Care guide" });
    expect(audioSend.audio).not.toHaveProperty("caption");
  });

  it("reports a rejected access token as not retryable, without the token in the message", async () => {
    const result = await createAdapter({ accessToken: "wrong-token" }).send({
      to: "15551234567",
      type: "text",
      text: "Hello",
    });

    expect(result).toMatchObject({ ok: false, retryable: false, status: 401, code: "190" });
    if (result.ok) return;
    expect(result.message).toContain("Invalid OAuth access token.");
    expect(result.message).not.toContain("wrong-token");
  });

  it("keeps the network's message for a bad request and does not retry it", async () => {
    const result = await createAdapter().send({ to: "12", type: "text", text: "Hello" });

    expect(result).toMatchObject({ ok: false, retryable: false, status: 400, code: "100" });
    if (result.ok) return;
    expect(result.message).toContain("(#100) Invalid parameter");
  });

  it("never echoes the access token even when the network's error does", async () => {
    network.failNext({
      status: 400,
      body: { error: { message: `Token ${ACCESS_TOKEN} is malformed`, type: "OAuthException", code: 100 } },
    });

    const result = await createAdapter().send({ to: "15551234567", type: "text", text: "Hello" });

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).not.toContain(ACCESS_TOKEN);
  });

  it.each([
    { status: 500, code: "1" },
    { status: 503, code: "2" },
    { status: 429, code: "4" },
  ])("treats HTTP $status as retryable", async ({ status, code }) => {
    network.failNext({ status });

    const result = await createAdapter().send({ to: "15551234567", type: "text", text: "Hello" });

    expect(result).toMatchObject({ ok: false, retryable: true, status, code });
  });

  it("treats a throughput error sent with HTTP 400 as retryable", async () => {
    network.failNext({
      status: 400,
      body: { error: { message: "(#130429) Rate limit hit", type: "OAuthException", code: 130429 } },
    });

    const result = await createAdapter().send({ to: "15551234567", type: "text", text: "Hello" });

    expect(result).toMatchObject({ ok: false, retryable: true, status: 400, code: "130429" });
  });

  it("names a non-Graph error body by its HTTP status", async () => {
    network.failNext({ status: 502, body: "<html>Bad Gateway</html>" });

    const result = await createAdapter().send({ to: "15551234567", type: "text", text: "Hello" });

    expect(result).toMatchObject({ ok: false, retryable: true, status: 502, code: "http_502" });
  });

  it("does not send the message when the media upload fails", async () => {
    network.failNext({ status: 500, path: /\/media$/ });

    const result = await createAdapter().send({
      to: "15551234567",
      type: "image",
      media: { mimeType: "image/png", bytes: PNG_BYTES },
    });

    expect(result).toMatchObject({ ok: false, retryable: true, status: 500 });
    expect(network.requests.map((request) => request.path)).toEqual([`/v21.0/${PHONE_NUMBER_ID}/media`]);
  });

  it("rejects a media message whose media was never uploaded", async () => {
    const response = await fetch(`${network.apiBaseUrl}/${PHONE_NUMBER_ID}/messages`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ACCESS_TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ messaging_product: "whatsapp", to: "15551234567", type: "image", image: { id: "999" } }),
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 100, type: "OAuthException" } });
  });

  it("treats a refused connection as retryable", async () => {
    const port = await findClosedPort();

    const result = await createAdapter({ apiBaseUrl: `http://127.0.0.1:${port}/v21.0` }).send({
      to: "15551234567",
      type: "text",
      text: "Hello",
    });

    expect(result).toMatchObject({ ok: false, retryable: true, code: "network_error" });
  });

  it("treats a network that does not answer in time as retryable", async () => {
    network.delayNext({ ms: 2_000 });

    const result = await createAdapter({ timeoutMs: 100 }).send({ to: "15551234567", type: "text", text: "Hello" });

    expect(result).toMatchObject({ ok: false, retryable: true, code: "timeout" });
  });
});

describe("testing the cloud connection", () => {
  it("names the display number when the credentials work", async () => {
    const result = await createAdapter().testConnection();

    expect(result.ok).toBe(true);
    expect(result.message).toContain("+1 555-010-0199");
    const [request] = network.requests;
    expect(request.method).toBe("GET");
    expect(request.path).toBe(`/v21.0/${PHONE_NUMBER_ID}`);
    expect(request.query.fields).toBe("display_phone_number,verified_name");
  });

  it("says the access token was rejected", async () => {
    const result = await createAdapter({ accessToken: "wrong-token" }).testConnection();

    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/access token rejected/i);
    expect(result.message).not.toContain("wrong-token");
  });

  it("passes on the network's message for an unknown phone number id", async () => {
    const result = await createCloudAdapter({
      apiBaseUrl: network.apiBaseUrl,
      phoneNumberId: "000000000000",
      accessToken: ACCESS_TOKEN,
      urlPolicy: LOOPBACK_ALLOWED,
    }).testConnection();

    expect(result.ok).toBe(false);
    expect(result.message).toContain("Unsupported get request");
  });
});

describe("parsing the cloud webhook", () => {
  const timestamp = new Date("2026-11-22T10:15:30.000Z");

  it("reads a text message with the contact's name", () => {
    const payload = buildInboundPayload({
      phoneNumberId: PHONE_NUMBER_ID,
      messages: [{ id: "wamid.text1", from: "15557654321", name: "Ada", timestamp, type: "text", text: "Hi!" }],
    });

    expect(parseNotification(payload)).toEqual({
      phoneNumberId: PHONE_NUMBER_ID,
      messages: [
        {
          networkMessageId: "wamid.text1",
          from: "15557654321",
          name: "Ada",
          timestamp,
          type: "text",
          text: "Hi!",
          phoneNumberId: PHONE_NUMBER_ID,
        },
      ],
      statuses: [],
      revisions: [],
      echoes: [],
      coexistence: [],
      templateStatuses: [],
      qualityUpdates: [],
    });
  });

  it("reads image, document, audio, voice note and video messages", () => {
    const from = "15557654321";
    const payload = buildInboundPayload({
      phoneNumberId: PHONE_NUMBER_ID,
      messages: [
        { id: "wamid.i", from, timestamp, type: "image", media: { id: "m1", mimeType: "image/jpeg", caption: "Leaf" } },
        {
          id: "wamid.d",
          from,
          timestamp,
          type: "document",
          media: { id: "m2", mimeType: "application/pdf", filename: "order.pdf", caption: "Order" },
        },
        { id: "wamid.a", from, timestamp, type: "audio", media: { id: "m3", mimeType: "audio/mpeg" } },
        {
          id: "wamid.v",
          from,
          timestamp,
          type: "audio",
          media: { id: "m4", mimeType: "audio/ogg; codecs=opus", voice: true },
        },
        { id: "wamid.m", from, timestamp, type: "video", media: { id: "m5", mimeType: "video/mp4" } },
      ],
    });

    const { messages } = parseNotification(payload);

    expect(messages.map((message) => [message.type, message.media])).toEqual([
      ["image", { networkMediaId: "m1", mimeType: "image/jpeg", caption: "Leaf" }],
      ["document", { networkMediaId: "m2", mimeType: "application/pdf", filename: "order.pdf", caption: "Order" }],
      ["audio", { networkMediaId: "m3", mimeType: "audio/mpeg" }],
      ["audio", { networkMediaId: "m4", mimeType: "audio/ogg; codecs=opus" }],
      ["video", { networkMediaId: "m5", mimeType: "video/mp4" }],
    ]);
    expect(messages.every((message) => message.timestamp.getTime() === timestamp.getTime())).toBe(true);
  });

  it("reads sent, delivered, read and failed statuses with the failure's reason", () => {
    const payload = buildInboundPayload({
      phoneNumberId: PHONE_NUMBER_ID,
      statuses: [
        { id: "wamid.out", status: "sent", recipientId: "15557654321", timestamp },
        { id: "wamid.out", status: "delivered", recipientId: "15557654321", timestamp },
        { id: "wamid.out", status: "read", recipientId: "15557654321", timestamp },
        {
          id: "wamid.out2",
          status: "failed",
          recipientId: "15557654321",
          timestamp,
          error: {
            code: 131026,
            title: "Message undeliverable",
            details: "Message Undeliverable.",
          },
        },
      ],
    });

    const { statuses, messages } = parseNotification(payload);

    expect(messages).toEqual([]);
    expect(statuses.map((status) => status.status)).toEqual(["sent", "delivered", "read", "failed"]);
    expect(statuses[0]).toEqual({
      networkMessageId: "wamid.out",
      status: "sent",
      timestamp,
      phoneNumberId: PHONE_NUMBER_ID,
      pricing: { category: "service", billable: true, pricing_model: "PMP" },
    });
    expect(statuses[3].error).toEqual({ code: "131026", message: "Message undeliverable: Message Undeliverable." });
  });

  it("keeps reactions, stickers, locations and every other kind, and skips only malformed items", () => {
    const from = "15557654321";
    const payload = buildInboundPayload({
      phoneNumberId: PHONE_NUMBER_ID,
      messages: [
        { id: "wamid.reaction", from, type: "reaction", payload: { message_id: "wamid.out", emoji: "👍" } },
        { id: "wamid.sticker", from, type: "sticker", media: { id: "s1", mimeType: "image/webp" } },
        { id: "wamid.location", from, type: "location", payload: { latitude: 52.5, longitude: 13.4, name: "Shop" } },
        { id: "wamid.broken-location", from, type: "location", payload: { latitude: "north" } },
        { id: "wamid.order", from, type: "order", payload: { catalog_id: "1" } },
        { id: "wamid.keep", from, type: "text", text: "Still here", contextId: "wamid.quoted" },
      ],
      statuses: [{ id: "wamid.x", status: "deleted", recipientId: from }],
    });
    const value = (payload.entry as { changes: { value: { messages: unknown[] } }[] }[])[0].changes[0].value;
    value.messages.push({ id: 42, type: "text" });

    const result = parseNotification(payload);

    expect(result.messages.map((message) => [message.networkMessageId, message.type])).toEqual([
      ["wamid.reaction", "reaction"],
      ["wamid.sticker", "sticker"],
      ["wamid.location", "location"],
      ["wamid.order", "unsupported"],
      ["wamid.keep", "text"],
    ]);
    expect(result.messages[0].reaction).toEqual({ networkMessageId: "wamid.out", emoji: "👍" });
    expect(result.messages[1].media).toEqual({ networkMediaId: "s1", mimeType: "image/webp" });
    expect(result.messages[2].content).toEqual({ location: { latitude: 52.5, longitude: 13.4, name: "Shop" } });
    expect(result.messages[3].content).toEqual({ unsupported: { network_type: "order" } });
    expect(result.messages[4].context).toEqual({ networkMessageId: "wamid.quoted" });
    expect(result.statuses).toEqual([]);
  });

  it("reads interactive replies, template button taps and contact cards as the API shows them", () => {
    const from = "15557654321";
    const { messages } = parseNotification(
      buildInboundPayload({
        phoneNumberId: PHONE_NUMBER_ID,
        messages: [
          { from, type: "interactive", payload: { type: "button_reply", button_reply: { id: "yes", title: "Yes" } } },
          { from, type: "interactive", payload: { type: "list_reply", list_reply: { id: "5", title: "Excellent", description: "5 stars" } } },
          { from, type: "button", payload: { text: "Stop promotions", payload: "STOP" } },
          {
            from,
            type: "contacts",
            payload: [
              { name: { formatted_name: "Ana Souza", first_name: "Ana" }, phones: [{ phone: "+55 11 98765-4321", wa_id: "5511987654321", type: "CELL" }], emails: [{ email: "ana@example.com" }] },
            ] as unknown as Record<string, unknown>,
          },
        ],
      }),
    );
    expect(messages.map((m) => m.content)).toEqual([
      { interactive: { type: "button_reply", id: "yes", title: "Yes" } },
      { interactive: { type: "list_reply", id: "5", title: "Excellent" } },
      { button: { text: "Stop promotions", payload: "STOP" } },
      { contacts: [{ name: "Ana Souza", phones: ["+55 11 98765-4321"], emails: ["ana@example.com"] }] },
    ]);
  });

  it("ignores change fields other than messages", () => {
    const result = parseNotification({
      object: "whatsapp_business_account",
      entry: [{ id: "1", changes: [{ field: "account_update", value: { event: "VERIFIED_ACCOUNT" } }] }],
    });

    expect(result).toEqual({ messages: [], statuses: [], revisions: [], echoes: [], coexistence: [], templateStatuses: [], qualityUpdates: [] });
  });

  it("refuses a body that is not a webhook envelope", () => {
    expect(() => parseNotification({ hello: "world" })).toThrow();
  });
});

describe("downloading inbound media", () => {
  it("fetches the media address first, then the bytes with the access token", async () => {
    const mediaId = network.addMedia({ bytes: PNG_BYTES, mimeType: "image/png" });

    const media = await downloadCloudMedia({
      apiBaseUrl: network.apiBaseUrl,
      accessToken: ACCESS_TOKEN,
      networkMediaId: mediaId,
      urlPolicy: LOOPBACK_ALLOWED,
    });

    expect(media.mimeType).toBe("image/png");
    expect(media.bytes.equals(PNG_BYTES)).toBe(true);
    expect(network.requests.map((request) => request.path)).toEqual([
      `/v21.0/${mediaId}`,
      "/whatsapp_business/attachments/",
    ]);
    expect(network.requests.every((request) => request.headers.authorization === `Bearer ${ACCESS_TOKEN}`)).toBe(
      true,
    );
  });

  it("throws a typed error for unknown media", async () => {
    const download = downloadCloudMedia({
      apiBaseUrl: network.apiBaseUrl,
      accessToken: ACCESS_TOKEN,
      networkMediaId: "123",
      urlPolicy: LOOPBACK_ALLOWED,
    });

    await expect(download).rejects.toBeInstanceOf(NetworkRequestError);
    await expect(download).rejects.toMatchObject({ code: "100", retryable: false, status: 400 });
  });

  it("refuses media above the size limit", async () => {
    const mediaId = network.addMedia({ bytes: Buffer.alloc(2048), mimeType: "video/mp4" });

    await expect(
      downloadCloudMedia({
        apiBaseUrl: network.apiBaseUrl,
        accessToken: ACCESS_TOKEN,
        networkMediaId: mediaId,
        urlPolicy: LOOPBACK_ALLOWED,
        maxBytes: 1024,
      }),
    ).rejects.toMatchObject({ code: "media_too_large" });
  });
});

describe("the URL policy on the network's addresses", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("sends nothing, not even the token, to a loopback API base URL without the development switch", async () => {
    const strict = createAdapter({ urlPolicy: { allowInsecure: false } });

    const sent = await strict.send({ to: "15551234567", type: "text", text: "Hello" });
    const tested = await strict.testConnection();

    expect(sent).toMatchObject({ ok: false, retryable: false, code: "url_refused" });
    expect(tested.ok).toBe(false);
    expect(tested.message).toMatch(/API base URL must use https/);
    expect(network.requests).toEqual([]);
  });

  it("refuses the cloud metadata address", async () => {
    const result = await createAdapter({ apiBaseUrl: "https://169.254.169.254/latest", urlPolicy: { allowInsecure: false } }).send({
      to: "15551234567",
      type: "text",
      text: "Hello",
    });

    expect(result).toMatchObject({ ok: false, retryable: false, code: "url_refused" });
    if (!result.ok) expect(result.message).toContain("not on the public internet");
  });

  it("treats a redirect from the API as a failure and does not follow it", async () => {
    network.redirectNext({ location: `${network.baseUrl}/followed`, path: /messages$/ });

    const result = await createAdapter().send({ to: "15551234567", type: "text", text: "Hello" });

    expect(result).toMatchObject({ ok: false, retryable: false, status: 302, code: "redirect" });
    expect(network.requests.map((request) => request.path)).toEqual([`/v21.0/${PHONE_NUMBER_ID}/messages`]);
  });

  it("treats a redirect of the media download as a failure and does not follow it", async () => {
    const mediaId = network.addMedia({ bytes: PNG_BYTES, mimeType: "image/png" });
    network.redirectNext({ location: `${network.baseUrl}/followed`, status: 307, path: /attachments/ });

    await expect(
      downloadCloudMedia({ apiBaseUrl: network.apiBaseUrl, accessToken: ACCESS_TOKEN, networkMediaId: mediaId, urlPolicy: LOOPBACK_ALLOWED }),
    ).rejects.toMatchObject({ code: "redirect", status: 307, retryable: false });
    expect(network.requests.map((request) => request.path)).toEqual([`/v21.0/${mediaId}`, "/whatsapp_business/attachments/"]);
  });

  it("checks the media download address before sending the token there", async () => {
    // A public API host whose answer points the download at the metadata address.
    const lookup = async (hostname: string) =>
      hostname === "graph.example.test" ? [{ address: "93.184.216.34", family: 4 }] : [{ address: "169.254.169.254", family: 4 }];
    // Graph calls connect through pinnedFetch (to the approved address); stand in for it.
    const fetchMock = vi.fn<(url: string | URL, pinned: unknown) => Promise<Response>>(async () =>
      Response.json({ url: "https://media.example.test/attachment?mid=1", mime_type: "image/png" }),
    );
    vi.resetModules();
    vi.doMock("@/lib/platform/http/pinned-post", () => ({ pinnedFetch: fetchMock }));
    const { downloadCloudMedia: download_ } = await import("@/lib/network/cloud");
    vi.doUnmock("@/lib/platform/http/pinned-post");

    const download = download_({
      apiBaseUrl: "https://graph.example.test/v21.0",
      accessToken: ACCESS_TOKEN,
      networkMediaId: "1234",
      urlPolicy: { allowInsecure: false, lookup },
    });

    await expect(download).rejects.toMatchObject({ code: "media_url_refused", retryable: false });
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(["https://graph.example.test/v21.0/1234"]);
    // …and the Graph call itself went to the address the policy approved.
    expect(fetchMock.mock.calls[0][1]).toEqual({ address: "93.184.216.34", family: 4 });
  });
});

describe("signing webhook bodies for tests", () => {
  it("produces the network's sha256 header value", () => {
    expect(signHubPayload({ appSecret: "secret", rawBody: "{}" })).toBe(
      "sha256=77325902caca812dc259733aacd046b73817372c777b8d95b402647474516e13",
    );
  });
});
