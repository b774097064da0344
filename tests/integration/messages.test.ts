import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as conversationMessagesRoute from "@/app/v1/conversations/[id]/messages/route";
import * as conversationRoute from "@/app/v1/conversations/[id]/route";
import * as mediaRoute from "@/app/v1/messages/[id]/media/route";
import * as messageRoute from "@/app/v1/messages/[id]/route";
import * as messagesRoute from "@/app/v1/messages/route";
import { getDb } from "@/db";
import { jobs, media } from "@/db/schema";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { countRows, eventsOf, JPEG, MP4, nextPhone, OGG, PDF, PNG, seedConversation } from "@/tests/support/messaging";

beforeEach(() => resetRateLimiters());

const send = (token: string, body: unknown, headers?: Record<string, string>) =>
  call(messagesRoute.POST, { method: "POST", path: "/v1/messages", token, body, headers });
const b64 = (bytes: Buffer) => bytes.toString("base64");

describe("POST /v1/messages", () => {
  it("records a text message as queued under the sending user, opens a conversation and queues the send", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const to = nextPhone();
    const res = await send(adminToken, { to, type: "text", text: "Hello! Your order is ready." });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^msg_[0-9a-z]{26}$/),
      conversation_id: expect.stringMatching(/^conv_/),
      direction: "outbound",
      from: "15550000000",
      to,
      type: "text",
      text: "Hello! Your order is ready.",
      status: "queued",
      sender: { type: "user", user_id: admin.id },
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const created = await eventsOf(account.id, "conversation.created");
    expect(created).toHaveLength(1);
    expect(created[0].data).toMatchObject({ conversation: { id: res.body.conversation_id, status: "open", contact: { phone: to } } });
    const queued = await getDb().select().from(jobs).where(eq(jobs.accountId, account.id));
    expect(queued.map((j) => [j.kind, j.payload])).toEqual([["message.send", { messageId: res.body.id }]]);

    const conversation = await call(conversationRoute.GET, { path: "/", token: adminToken, params: { id: res.body.conversation_id } });
    expect(conversation.body).toMatchObject({ last_message_at: res.body.timestamp, last_message_preview: "Hello! Your order is ready.", unread_count: 0 });
  });

  it("uses the number's open conversation for the next message, and the given conversation_id", async () => {
    const { account, adminToken } = await createTestAccount();
    const to = nextPhone();
    const first = await send(adminToken, { to, type: "text", text: "one" });
    const second = await send(adminToken, { to, type: "text", text: "two" });
    const third = await send(adminToken, { type: "text", text: "three", conversation_id: first.body.conversation_id });
    expect(new Set([first.body.conversation_id, second.body.conversation_id, third.body.conversation_id]).size).toBe(1);
    expect(await eventsOf(account.id, "conversation.created")).toHaveLength(1);
  });

  it("reopens a closed conversation it is sent into (and the reply assigns it to the sender)", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const { conversation } = await seedConversation({ accountId: account.id, status: "closed" });
    const res = await send(adminToken, { type: "text", text: "Following up", conversation_id: conversation.id });
    expect(res.status).toBe(201);
    const after = await call(conversationRoute.GET, { path: "/", token: adminToken, params: { id: conversation.id } });
    // Reopened without an assignee, then auto-assigned on reply.
    expect(after.body).toMatchObject({ status: "assigned", assigned_to: admin.id });
    expect(await eventsOf(account.id, "conversation.reopened")).toHaveLength(1);
    expect(await eventsOf(account.id, "conversation.assigned")).toHaveLength(1);
  });

  it("sends each media type, and serves the bytes back with their type", async () => {
    const { adminToken } = await createTestAccount();
    const to = nextPhone();
    const cases = [
      { type: "image", media: { mime_type: "image/png", data: b64(PNG), caption: "Our shop front" }, bytes: PNG },
      { type: "image", media: { mime_type: "image/jpeg", data: b64(JPEG) }, bytes: JPEG },
      { type: "document", media: { mime_type: "application/pdf", data: b64(PDF), filename: "menú 2026.pdf", caption: "The menu" }, bytes: PDF },
      { type: "audio", media: { mime_type: "audio/ogg", data: b64(OGG) }, bytes: OGG },
      { type: "video", media: { mime_type: "video/mp4", data: b64(MP4), caption: "How to repot" }, bytes: MP4 },
    ];
    for (const { bytes, ...body } of cases) {
      const res = await send(adminToken, { to, ...body });
      expect(res.status).toBe(201);
      expect(res.body).not.toHaveProperty("text");
      expect(res.body.media).toMatchObject({ mime_type: body.media.mime_type, size: bytes.length, url: `/v1/messages/${res.body.id}/media` });
      expect(res.body.media.id).toMatch(/^med_/);
      const file = await mediaRoute.GET(new Request(`http://localhost/v1/messages/${res.body.id}/media`, { headers: { authorization: `Bearer ${adminToken}` } }), {
        params: Promise.resolve({ id: res.body.id }),
      });
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toBe(body.media.mime_type);
      expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
      if (body.type === "document") {
        expect(file.headers.get("content-disposition")).toBe(`attachment; filename="men_ 2026.pdf"; filename*=UTF-8''men%C3%BA%202026.pdf`);
      }
    }
  });

  const image = (over: Record<string, unknown> = {}) => ({ mime_type: "image/png", data: b64(PNG), ...over });
  const sixMiB = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 + 1)]);

  it.each([
    ["no to", { type: "text", text: "hi" }, "to"],
    ["to with +", { to: "+447700900123", type: "text", text: "hi" }, "to"],
    ["to too short", { to: "1234567", type: "text", text: "hi" }, "to"],
    ["to too long", { to: "1234567890123456", type: "text", text: "hi" }, "to"],
    ["to with spaces", { to: "44 7700 900123", type: "text", text: "hi" }, "to"],
    ["to as a number", { to: 447700900123, type: "text", text: "hi" }, "to"],
    ["no type", { to: "447700900123", text: "hi" }, "type"],
    ["an unknown type", { to: "447700900123", type: "sticker", text: "hi" }, "type"],
    ["text without text", { to: "447700900123", type: "text" }, "text"],
    ["empty text", { to: "447700900123", type: "text", text: "" }, "text"],
    ["text of 4,097 characters", { to: "447700900123", type: "text", text: "x".repeat(4097) }, "text"],
    ["text with media", { to: "447700900123", type: "text", text: "hi", media: image() }, "media"],
    ["an image without media", { to: "447700900123", type: "image" }, "media"],
    ["an image with text", { to: "447700900123", type: "image", text: "hi", media: image() }, "text"],
    ["a gif image", { to: "447700900123", type: "image", media: image({ mime_type: "image/gif" }) }, "media.mime_type"],
    ["a pdf sent as an image", { to: "447700900123", type: "image", media: image({ mime_type: "application/pdf" }) }, "media.mime_type"],
    ["data that is not base64", { to: "447700900123", type: "image", media: image({ data: "not base64!" }) }, "media.data"],
    ["empty data", { to: "447700900123", type: "image", media: image({ data: "" }) }, "media.data"],
    ["png bytes declared as jpeg", { to: "447700900123", type: "image", media: image({ mime_type: "image/jpeg" }) }, "media.data"],
    ["no mime_type", { to: "447700900123", type: "image", media: { data: b64(PNG) } }, "media.mime_type"],
    ["a document without filename", { to: "447700900123", type: "document", media: { mime_type: "application/pdf", data: b64(PDF) } }, "media.filename"],
    ["a filename with a path", { to: "447700900123", type: "document", media: { mime_type: "application/pdf", data: b64(PDF), filename: "../x.pdf" } }, "media.filename"],
    ["a caption on audio", { to: "447700900123", type: "audio", media: { mime_type: "audio/ogg", data: b64(OGG), caption: "listen" } }, "media.caption"],
    ["a caption of 1,025 characters", { to: "447700900123", type: "image", media: image({ caption: "c".repeat(1025) }) }, "media.caption"],
    ["a malformed conversation_id", { to: "447700900123", type: "text", text: "hi", conversation_id: "abc" }, "conversation_id"],
  ])("refuses %s with a 400 naming the field and stores nothing", async (_name, body, field) => {
    const { account, adminToken } = await createTestAccount();
    const before = await countRows(account.id);
    const res = await send(adminToken, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_error");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    expect(await countRows(account.id)).toEqual(before);
  });

  // The network's limit: a file over it is a 413 media_too_large naming the limit in words.
  it("refuses an image over 5 MB with a 413 media_too_large naming the limit and stores nothing", async () => {
    const { account, adminToken } = await createTestAccount();
    const before = await countRows(account.id);
    const res = await send(adminToken, { to: "447700900123", type: "image", media: image({ data: b64(sixMiB) }) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("media_too_large");
    expect(res.body.error.message).toContain("Images can be at most 5 MB");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain("media.data");
    expect(await countRows(account.id)).toEqual(before);
  });

  it("reports every violation of one body at once", async () => {
    const { adminToken } = await createTestAccount();
    const res = await send(adminToken, { to: "12", type: "audio", text: "hi", media: { mime_type: "audio/wav", data: "@@", caption: "x" } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(["media.caption", "media.data", "media.mime_type", "text", "to"]);
  });

  it("refuses a conversation_id together with a number (400: one recipient only) or of another account (404), storing nothing", async () => {
    const { account, adminToken } = await createTestAccount();
    const other = await createTestAccount();
    const { conversation } = await seedConversation({ accountId: account.id });
    const { conversation: foreign } = await seedConversation({ accountId: other.account.id });
    const before = await countRows(account.id);
    const wrongNumber = await send(adminToken, { to: "447700900999", type: "text", text: "hi", conversation_id: conversation.id });
    expect(wrongNumber.status).toBe(400);
    expect(wrongNumber.body.error.details[0].path).toBe("conversation_id");
    const foreignRes = await send(adminToken, { type: "text", text: "hi", conversation_id: foreign.id });
    expect(foreignRes.status).toBe(404);
    expect(await countRows(account.id)).toEqual(before);
  });

  it("answers 413 for a body over 32 MiB", async () => {
    const { adminToken } = await createTestAccount();
    const res = await call(messagesRoute.POST, {
      method: "POST",
      path: "/v1/messages",
      token: adminToken,
      rawBody: "x",
      headers: { "content-type": "application/json", "content-length": String(32 * 1024 * 1024 + 1) },
    });
    expect(res.status).toBe(413);
  });

  it("replays a retried request with the same Idempotency-Key and sends once", async () => {
    const { account, adminToken } = await createTestAccount();
    const body = { to: nextPhone(), type: "text", text: "Only once, please" };
    const headers = { "idempotency-key": "order-42-confirmation" };
    const first = await send(adminToken, body, headers);
    const before = await countRows(account.id);
    const second = await send(adminToken, body, headers);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await countRows(account.id)).toEqual(before);
    expect(before.messages).toBe(1);
    const conflict = await send(adminToken, { ...body, text: "Something else" }, headers);
    expect(conflict.status).toBe(409);
    expect(await countRows(account.id)).toEqual(before);
  });

  it("records an agent's message under the agent", async () => {
    const { account } = await createTestAccount();
    const { user, token } = await addTestUser(account.id, "agent");
    const res = await send(token, { to: nextPhone(), type: "text", text: "hi" });
    expect(res.body.sender).toEqual({ type: "user", user_id: user.id });
  });
});

describe("reading and deleting messages", () => {
  it("lists a conversation's messages newest first, in pages", async () => {
    const { adminToken } = await createTestAccount();
    const to = nextPhone();
    const sent = [];
    for (let i = 0; i < 5; i++) sent.push((await send(adminToken, { to, type: "text", text: `message ${i}` })).body);
    const id = sent[0].conversation_id;
    const page1 = await call(conversationMessagesRoute.GET, { path: `/v1/conversations/${id}/messages?limit=3`, token: adminToken, params: { id } });
    expect(page1.body.data.map((m: { text: string }) => m.text)).toEqual(["message 4", "message 3", "message 2"]);
    expect(page1.body.pagination.has_more).toBe(true);
    const page2 = await call(conversationMessagesRoute.GET, {
      path: `/v1/conversations/${id}/messages?limit=3&cursor=${encodeURIComponent(page1.body.pagination.next_cursor)}`,
      token: adminToken,
      params: { id },
    });
    expect(page2.body.data.map((m: { text: string }) => m.text)).toEqual(["message 1", "message 0"]);
    expect(page2.body.pagination).toEqual({ next_cursor: null, has_more: false });
    const bad = await call(conversationMessagesRoute.GET, { path: `/v1/conversations/${id}/messages?limit=0`, token: adminToken, params: { id } });
    expect(bad.status).toBe(400);
  });

  it("gets one message, and another account's message is a 404 everywhere", async () => {
    const { adminToken } = await createTestAccount();
    const other = await createTestAccount();
    const mine = await send(adminToken, { to: nextPhone(), type: "image", media: { mime_type: "image/png", data: b64(PNG) } });
    const got = await call(messageRoute.GET, { path: "/", token: adminToken, params: { id: mine.body.id } });
    expect(got.body).toEqual(mine.body);
    const id = mine.body.id;
    const statuses = [
      (await call(messageRoute.GET, { path: "/", token: other.adminToken, params: { id } })).status,
      (await call(mediaRoute.GET, { path: "/", token: other.adminToken, params: { id } })).status,
      (await call(messageRoute.DELETE, { method: "DELETE", path: "/", token: other.adminToken, params: { id } })).status,
      (await call(messageRoute.GET, { path: "/", token: adminToken, params: { id: "msg_00000000000000000000000000" } })).status,
    ];
    expect(statuses).toEqual([404, 404, 404, 404]);
    expect((await call(messageRoute.GET, { path: "/", token: adminToken, params: { id } })).body.deleted_at).toBeUndefined();
  });

  it("soft-deletes: text and media erased, deleted_at set, 204; agents may not", async () => {
    const { account, adminToken } = await createTestAccount();
    const { token: agentToken } = await addTestUser(account.id, "agent");
    const to = nextPhone();
    const picture = await send(adminToken, { to, type: "image", media: { mime_type: "image/png", data: b64(PNG), caption: "secret plan" } });
    const words = await send(adminToken, { to, type: "text", text: "my address is 1 Main St" });

    const forbidden = await call(messageRoute.DELETE, { method: "DELETE", path: "/", token: agentToken, params: { id: words.body.id } });
    expect(forbidden.status).toBe(403);

    for (const id of [picture.body.id, words.body.id]) {
      const res = await call(messageRoute.DELETE, { method: "DELETE", path: "/", token: adminToken, params: { id } });
      expect(res.status).toBe(204);
    }
    const gone = await call(messageRoute.GET, { path: "/", token: adminToken, params: { id: words.body.id } });
    expect(gone.body).toMatchObject({ id: words.body.id, type: "text", deleted_at: expect.any(String) });
    expect(gone.body).not.toHaveProperty("text");
    const goneMedia = await call(messageRoute.GET, { path: "/", token: adminToken, params: { id: picture.body.id } });
    expect(goneMedia.body).not.toHaveProperty("media");
    expect((await call(mediaRoute.GET, { path: "/", token: adminToken, params: { id: picture.body.id } })).status).toBe(404);
    expect(await getDb().select().from(media).where(eq(media.accountId, account.id))).toHaveLength(0);
    const conversation = await call(conversationRoute.GET, { path: "/", token: adminToken, params: { id: words.body.conversation_id } });
    expect(conversation.body.last_message_preview).toBe("Message deleted");
    const again = await call(messageRoute.DELETE, { method: "DELETE", path: "/", token: adminToken, params: { id: words.body.id } });
    expect(again.status).toBe(204);
  });

  it("deleting a conversation deletes its messages and their media", async () => {
    const { account, adminToken } = await createTestAccount();
    const res = await send(adminToken, { to: nextPhone(), type: "image", media: { mime_type: "image/png", data: b64(PNG) } });
    const id = res.body.conversation_id;
    expect((await call(conversationRoute.DELETE, { method: "DELETE", path: "/", token: adminToken, params: { id } })).status).toBe(204);
    const rows = await countRows(account.id);
    expect([rows.conversations, rows.messages, rows.media]).toEqual([0, 0, 0]);
    expect((await call(messageRoute.GET, { path: "/", token: adminToken, params: { id: res.body.id } })).status).toBe(404);
  });
});
