import { and, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as sandboxInboundRoute from "@/app/api/sandbox/inbound/route";
import * as exportRoute from "@/app/v1/contacts/export/route";
import * as contactRoute from "@/app/v1/contacts/[id]/route";
import * as contactsRoute from "@/app/v1/contacts/route";
import * as conversationLabelsRoute from "@/app/v1/conversations/[id]/labels/route";
import * as conversationRoute from "@/app/v1/conversations/[id]/route";
import * as snoozeRoute from "@/app/v1/conversations/[id]/snooze/route";
import * as closeRoute from "@/app/v1/conversations/[id]/close/route";
import * as assignRoute from "@/app/v1/conversations/[id]/assign/route";
import * as conversationsRoute from "@/app/v1/conversations/route";
import * as labelRoute from "@/app/v1/labels/[id]/route";
import * as labelsRoute from "@/app/v1/labels/route";
import * as messagesRoute from "@/app/v1/messages/route";
import * as notesRoute from "@/app/v1/conversations/[id]/notes/route";
import * as searchRoute from "@/app/v1/search/route";
import { getDb } from "@/db";
import { contacts, conversations, jobs, messages } from "@/db/schema";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { createApiToken } from "@/lib/auth/api-tokens";
import type { Scope } from "@/lib/auth/scopes";
import { receiveInboundMessage } from "@/lib/messages/receive-inbound";
import { call } from "@/tests/support/api";
import { addTestUser, bearerContext, createTestAccount } from "@/tests/support/fixtures";
import { countRows, eventsOf, nextPhone, seedConversation } from "@/tests/support/messaging";
import { drain } from "@/tests/support/webhooks";
import { systemContext } from "@/lib/server/context";

beforeEach(() => resetRateLimiters());

const HOUR = 3_600_000;
const inHours = (h: number) => new Date(Date.now() + h * HOUR).toISOString();

async function scopedToken(adminToken: string, permissions: Scope[]) {
  const ctx = await bearerContext(adminToken);
  return (await createApiToken({ ctx, input: { name: "scoped", permissions, expires_at: new Date(Date.now() + 3 * 86_400_000) } })).token;
}

async function customerWrites(token: string, body: Record<string, unknown>) {
  const res = await call(sandboxInboundRoute.POST, { method: "POST", path: "/api/sandbox/inbound", token, body: { type: "text", ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; conversation_id: string };
}

const createLabel = (token: string, body: unknown) => call(labelsRoute.POST, { method: "POST", path: "/v1/labels", token, body });
const setLabels = (token: string, id: string, body: unknown) =>
  call(conversationLabelsRoute.PUT, { method: "PUT", path: `/v1/conversations/${id}/labels`, token, params: { id }, body });
const getConversation = (token: string, id: string) => call(conversationRoute.GET, { path: `/v1/conversations/${id}`, token, params: { id } });
const snooze = (token: string, id: string, body: unknown) => call(snoozeRoute.POST, { method: "POST", path: `/v1/conversations/${id}/snooze`, token, params: { id }, body });
const search = (token: string, query: string) => call(searchRoute.GET, { path: `/v1/search?${query}`, token });
const getContact = (token: string, id: string) => call(contactRoute.GET, { path: `/v1/contacts/${id}`, token, params: { id } });
const patchContact = (token: string, id: string, body: unknown) => call(contactRoute.PATCH, { method: "PATCH", path: `/v1/contacts/${id}`, token, params: { id }, body });

describe("labels", () => {
  it("are created, listed in creation order, refused on a duplicate name and deleted", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const vip = await createLabel(adminToken, { name: "VIP", color: "#16A34A" });
    expect(vip.status, vip.text).toBe(201);
    expect(vip.body).toMatchObject({ id: expect.stringMatching(/^lbl_/), name: "VIP", color: "#16a34a" });
    const late = await createLabel(adminToken, { name: "  Late delivery ", color: "#dc2626" });
    expect(late.body.name).toBe("Late delivery");

    const dup = await createLabel(adminToken, { name: "vip", color: "#000000" });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe("conflict");
    const bad = await createLabel(adminToken, { name: "x".repeat(41), color: "green" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(["color", "name"]);
    expect((await createLabel(adminToken, { name: "", color: "#000000" })).status).toBe(400);
    expect((await createLabel(agent.token, { name: "Agent's", color: "#000000" })).status).toBe(403);

    const first = await call(labelsRoute.GET, { path: "/v1/labels?limit=1", token: agent.token });
    expect(first.status).toBe(200);
    expect(first.body.data.map((l: { id: string }) => l.id)).toEqual([vip.body.id]);
    const second = await call(labelsRoute.GET, { path: `/v1/labels?limit=1&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`, token: agent.token });
    expect(second.body.data.map((l: { id: string }) => l.id)).toEqual([late.body.id]);
    expect(second.body.pagination).toEqual({ next_cursor: null, has_more: false });

    // Another account may use the same name, and cannot see or delete ours.
    const other = await createTestAccount();
    expect((await createLabel(other.adminToken, { name: "VIP", color: "#16a34a" })).status).toBe(201);
    const foreign = await call(labelRoute.DELETE, { method: "DELETE", path: `/v1/labels/${vip.body.id}`, token: other.adminToken, params: { id: vip.body.id } });
    expect(foreign.status).toBe(404);
    expect((await call(labelRoute.DELETE, { method: "DELETE", path: `/v1/labels/${vip.body.id}`, token: agent.token, params: { id: vip.body.id } })).status).toBe(403);
    const gone = await call(labelRoute.DELETE, { method: "DELETE", path: `/v1/labels/${vip.body.id}`, token: adminToken, params: { id: vip.body.id } });
    expect(gone.status).toBe(204);
    expect((await call(labelsRoute.GET, { path: "/v1/labels", token: adminToken })).body.data.map((l: { name: string }) => l.name)).toEqual(["Late delivery"]);
  });

  it("are put on conversations, shown on them, filtered by, and taken off when deleted", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const vip = (await createLabel(adminToken, { name: "VIP", color: "#16a34a" })).body;
    const late = (await createLabel(adminToken, { name: "Late", color: "#dc2626" })).body;
    const a = (await seedConversation({ accountId: account.id })).conversation;
    const b = (await seedConversation({ accountId: account.id })).conversation;

    const labeled = await setLabels(agent.token, a.id, { label_ids: [vip.id, late.id] });
    expect(labeled.status, labeled.text).toBe(200);
    expect(labeled.body.labels).toEqual([
      { id: late.id, name: "Late", color: "#dc2626" },
      { id: vip.id, name: "VIP", color: "#16a34a" },
    ]);
    await setLabels(agent.token, b.id, { label_ids: [late.id] });
    expect((await getConversation(agent.token, a.id)).body.labels).toHaveLength(2);

    const filtered = await call(conversationsRoute.GET, { path: `/v1/conversations?label=${vip.id}`, token: agent.token });
    expect(filtered.body.data.map((c: { id: string }) => c.id)).toEqual([a.id]);
    const both = await call(conversationsRoute.GET, { path: `/v1/conversations?label=${late.id}`, token: agent.token });
    expect(both.body.data.map((c: { id: string }) => c.id).sort()).toEqual([a.id, b.id].sort());
    expect((await call(conversationsRoute.GET, { path: "/v1/conversations?label=vip", token: agent.token })).status).toBe(400);

    // An unknown label (or another account's) is a 400 naming it, and nothing changes.
    const other = await createTestAccount();
    const theirs = (await createLabel(other.adminToken, { name: "Theirs", color: "#000000" })).body;
    const unknown = await setLabels(agent.token, a.id, { label_ids: [vip.id, theirs.id] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0].path).toBe("label_ids.1");
    expect((await getConversation(agent.token, a.id)).body.labels).toHaveLength(2);
    expect((await setLabels(agent.token, a.id, { label_ids: "vip" })).status).toBe(400);
    expect((await setLabels(agent.token, a.id, {})).status).toBe(400);
    const foreignConversation = (await seedConversation({ accountId: other.account.id })).conversation;
    expect((await setLabels(agent.token, foreignConversation.id, { label_ids: [] })).status).toBe(404);
    const readOnly = await scopedToken(adminToken, ["conversations:read"]);
    expect((await setLabels(readOnly, a.id, { label_ids: [] })).status).toBe(403);

    await call(labelRoute.DELETE, { method: "DELETE", path: `/v1/labels/${late.id}`, token: adminToken, params: { id: late.id } });
    expect((await getConversation(agent.token, a.id)).body.labels).toEqual([{ id: vip.id, name: "VIP", color: "#16a34a" }]);
    expect((await getConversation(agent.token, b.id)).body.labels).toEqual([]);

    const cleared = await setLabels(agent.token, a.id, { label_ids: [] });
    expect(cleared.body.labels).toEqual([]);
  });
});

describe("snooze", () => {
  it("parks a conversation until its time, then the job runner wakes it with conversation.reopened", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const { conversation } = await seedConversation({ accountId: account.id, status: "assigned", assignedTo: admin.id });
    const snoozed = await snooze(adminToken, conversation.id, { until: inHours(2) });
    expect(snoozed.status, snoozed.text).toBe(200);
    expect(snoozed.body).toMatchObject({ status: "snoozed", assigned_to: admin.id, snoozed_until: expect.any(String) });
    const [event] = await eventsOf(account.id, "conversation.snoozed");
    expect(event.data).toMatchObject({ conversation: { id: conversation.id, status: "snoozed" }, user: { id: admin.id } });

    const listed = await call(conversationsRoute.GET, { path: "/v1/conversations?status=snoozed", token: adminToken });
    expect(listed.body.data.map((c: { id: string }) => c.id)).toEqual([conversation.id]);

    // Not yet due: nothing happens.
    await drain();
    expect((await getConversation(adminToken, conversation.id)).body.status).toBe("snoozed");
    await drain(2 * HOUR + 1000);
    const woken = (await getConversation(adminToken, conversation.id)).body;
    expect(woken).toMatchObject({ status: "assigned", assigned_to: admin.id, snoozed_until: null });
    const reopened = await eventsOf(account.id, "conversation.reopened");
    expect(reopened).toHaveLength(1);
    expect(reopened[0].data).not.toHaveProperty("user");
  });

  it("wakes at once on a customer's message, and an earlier wake-up job then does nothing", async () => {
    const { account, adminToken } = await createTestAccount();
    const phone = nextPhone();
    const first = await customerWrites(adminToken, { from: phone, name: "Lucía", text: "Hola" });
    await snooze(adminToken, first.conversation_id, { until: inHours(24) });
    const again = await customerWrites(adminToken, { from: phone, text: "¿Siguen ahí?" });
    expect(again.conversation_id).toBe(first.conversation_id);
    expect((await getConversation(adminToken, first.conversation_id)).body).toMatchObject({ status: "open", snoozed_until: null });
    expect(await eventsOf(account.id, "conversation.reopened")).toHaveLength(1);
    await drain(25 * HOUR);
    expect(await eventsOf(account.id, "conversation.reopened")).toHaveLength(1);
  });

  it("re-snoozing moves the wake-up; the first job finds it still asleep", async () => {
    const { account, adminToken } = await createTestAccount();
    const { conversation } = await seedConversation({ accountId: account.id });
    await snooze(adminToken, conversation.id, { until: inHours(1) });
    await snooze(adminToken, conversation.id, { until: inHours(5) });
    await drain(2 * HOUR);
    expect((await getConversation(adminToken, conversation.id)).body.status).toBe("snoozed");
    await drain(6 * HOUR);
    expect((await getConversation(adminToken, conversation.id)).body.status).toBe("open");
  });

  it("keeps snoozing through a change of hands and ends when closed", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const { conversation } = await seedConversation({ accountId: account.id });
    await snooze(adminToken, conversation.id, { until: inHours(1) });
    const taken = await call(assignRoute.POST, { method: "POST", path: `/v1/conversations/${conversation.id}/assign`, token: agent.token, params: { id: conversation.id } });
    expect(taken.body).toMatchObject({ status: "snoozed", assigned_to: agent.user.id });
    const closed = await call(closeRoute.POST, { method: "POST", path: `/v1/conversations/${conversation.id}/close`, token: agent.token, params: { id: conversation.id } });
    expect(closed.body).toMatchObject({ status: "closed", snoozed_until: null });
    await drain(2 * HOUR);
    expect((await getConversation(adminToken, conversation.id)).body.status).toBe("closed");
    const refused = await snooze(adminToken, conversation.id, { until: inHours(1) });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("invalid_transition");
  });

  it("refuses a time in the past, beyond 90 days or not a timestamp, changing nothing", async () => {
    const { account, adminToken } = await createTestAccount();
    const { conversation } = await seedConversation({ accountId: account.id });
    const before = await countRows(account.id);
    for (const until of [inHours(-1), inHours(24 * 91), "tomorrow", 5]) {
      const res = await snooze(adminToken, conversation.id, { until });
      expect(res.status, String(until)).toBe(400);
      expect(res.body.error.details[0].path).toBe("until");
    }
    expect((await snooze(adminToken, conversation.id, {})).status).toBe(400);
    expect(await countRows(account.id)).toEqual(before);
    expect((await getConversation(adminToken, conversation.id)).body.status).toBe("open");
    expect((await snooze(adminToken, "conv_unknown", { until: inHours(1) })).status).toBe(404);
    const readOnly = await scopedToken(adminToken, ["conversations:read"]);
    expect((await snooze(readOnly, conversation.id, { until: inHours(1) })).status).toBe(403);
    expect(await getDb().select().from(jobs).where(and(eq(jobs.accountId, account.id), eq(jobs.kind, "conversation.wake")))).toHaveLength(0);
  });
});

describe("GET /v1/search", () => {
  it("finds names, numbers and message text regardless of case and accents, best match first, with snippets", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const gomezPhone = nextPhone();
    const gomez = await customerWrites(adminToken, { from: gomezPhone, name: "Ana Gómez", text: "Hola, buen día" });
    const writer = await customerWrites(adminToken, { from: nextPhone(), name: "Pedro", text: "¿Me la entregá mañana? Hablé con la señora GOMEZ ayer." });
    await customerWrites(adminToken, { from: nextPhone(), name: "Otro", text: "nada que ver" });

    const byName = await search(agent.token, "q=gomez");
    expect(byName.status, byName.text).toBe(200);
    expect(byName.body.data.map((r: { conversation: { id: string } }) => r.conversation.id)).toEqual([gomez.conversation_id, writer.conversation_id]);
    expect(byName.body.data[0].match).toMatchObject({ field: "name", snippet: "Ana Gómez", highlights: [{ start: 4, end: 9 }] });
    const textMatch = byName.body.data[1].match;
    expect(textMatch.field).toBe("message");
    expect(textMatch.message_id).toBe(writer.id);
    expect(textMatch.snippet.slice(textMatch.highlights[0].start, textMatch.highlights[0].end)).toBe("GOMEZ");

    const accented = await search(agent.token, "q=ENTREGA");
    expect(accented.body.data).toHaveLength(1);
    const { snippet, highlights } = accented.body.data[0].match;
    expect(snippet.slice(highlights[0].start, highlights[0].end)).toBe("entregá");

    const byNumber = await search(agent.token, `q=${encodeURIComponent(`+${gomezPhone.slice(0, 4)} ${gomezPhone.slice(4)}`)}`);
    expect(byNumber.body.data.map((r: { conversation: { id: string } }) => r.conversation.id)).toEqual([gomez.conversation_id]);
    expect(byNumber.body.data[0].match.field).toBe("phone");

    // Wildcards are plain characters.
    expect((await search(agent.token, "q=%25%25")).body.data).toEqual([]);
    // Another account's data never shows.
    const other = await createTestAccount();
    expect((await search(other.adminToken, "q=gomez")).body.data).toEqual([]);
  });

  it("finds a teammate's internal note, accent-insensitively, with its snippet", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const noted = await customerWrites(adminToken, { from: nextPhone(), name: "Lucía", text: "Hola" });
    await customerWrites(adminToken, { from: nextPhone(), name: "Otra", text: "Nada" });
    const note = await call(notesRoute.POST, {
      method: "POST",
      path: `/v1/conversations/${noted.conversation_id}/notes`,
      token: agent.token,
      body: { text: "Pidió la devolución del helecho: revisar el depósito" },
      params: { id: noted.conversation_id },
    });
    expect(note.status, note.text).toBe(201);
    const res = await search(adminToken, "q=devolucion");
    expect(res.body.data.map((r: { conversation: { id: string } }) => r.conversation.id)).toEqual([noted.conversation_id]);
    const match = res.body.data[0].match;
    expect(match).toMatchObject({ field: "note", message_id: null });
    expect(match.snippet.slice(match.highlights[0].start, match.highlights[0].end)).toBe("devolución");
  });

  it("pages through matches without repeats and refuses bad input", async () => {
    const { account, adminToken } = await createTestAccount();
    for (let i = 0; i < 5; i++) await customerWrites(adminToken, { from: nextPhone(), name: i % 2 ? `Cliente ${i}` : `Ramón ${i}`, text: `pedido ramon ${i}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await search(adminToken, `q=ramon&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.status, res.text).toBe(200);
      seen.push(...res.body.data.map((r: { conversation: { id: string } }) => r.conversation.id));
      cursor = res.body.pagination.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(5);
    const names = (await getDb().select({ name: contacts.name }).from(contacts).where(eq(contacts.accountId, account.id))).length;
    expect(names).toBe(5);

    expect((await search(adminToken, "q=a")).status).toBe(400);
    expect((await search(adminToken, `q=${"x".repeat(201)}`)).status).toBe(400);
    expect((await search(adminToken, "")).status).toBe(400);
    expect((await search(adminToken, "q=ramon&cursor=forged.cursor")).status).toBe(400);
    const reportsOnly = await scopedToken(adminToken, ["reports:read"]);
    expect((await search(reportsOnly, "q=ramon")).status).toBe(403);
  });

  it("finds words by their beginning, all words of the query, and serves message text from its index", async () => {
    const { adminToken } = await createTestAccount();
    const order = await customerWrites(adminToken, { from: nextPhone(), name: "Cliente", text: "Quiero cambiar la dirección de entrega del pedido" });
    await customerWrites(adminToken, { from: nextPhone(), name: "Otra", text: "La dirección está bien" });
    const both = await search(adminToken, `q=${encodeURIComponent("direccion entreg")}`);
    expect(both.body.data.map((r: { conversation: { id: string } }) => r.conversation.id)).toEqual([order.conversation_id]);
    const { snippet, highlights } = both.body.data[0].match;
    expect(highlights.map((h: { start: number; end: number }) => snippet.slice(h.start, h.end))).toEqual(["dirección", "entreg"]);
    // Inside a word is not a match.
    expect((await search(adminToken, "q=ireccion")).body.data).toEqual([]);

    await getDb().execute(sql`set enable_seqscan = off`);
    try {
      const plan = await getDb().execute(sql`explain select id from messages where chorus_search_vector(text) @@ to_tsquery('simple', 'entrega:*')`);
      const lines = (Array.isArray(plan) ? plan : (plan as unknown as { rows: unknown[] }).rows) as Record<string, string>[];
      expect(lines.map((r) => Object.values(r)[0]).join("\n")).toMatch(/messages_text_search_idx/);
    } finally {
      await getDb().execute(sql`reset enable_seqscan`);
    }
  });
});

describe("contacts", () => {
  it("lists with search and stats, reads, updates with contact.updated, and exports CSV", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const phone = nextPhone();
    const first = await customerWrites(adminToken, { from: phone, name: "José Núñez", text: "Hola" });
    await customerWrites(adminToken, { from: nextPhone(), name: "Zoe", text: "Hi" });
    const [contact] = await getDb().select().from(contacts).where(and(eq(contacts.accountId, account.id), eq(contacts.phone, phone)));

    const listed = await call(contactsRoute.GET, { path: "/v1/contacts?q=nunez", token: agent.token });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id: contact.id, phone, name: "José Núñez", email: null, notes: null, attributes: {}, blocked: false, conversations_count: 1, last_message_at: expect.any(String) }),
    ]);
    const all = await call(contactsRoute.GET, { path: "/v1/contacts?limit=1", token: agent.token });
    expect(all.body.pagination.has_more).toBe(true);
    expect((await call(contactsRoute.GET, { path: "/v1/contacts?limit=0", token: agent.token })).status).toBe(400);

    expect((await getContact(agent.token, contact.id)).body.name).toBe("José Núñez");
    const other = await createTestAccount();
    expect((await getContact(other.adminToken, contact.id)).status).toBe(404);

    const updated = await patchContact(agent.token, contact.id, {
      name: "José N.",
      email: "Jose@Example.com",
      notes: "Prefers mornings",
      attributes: { plan: "gold", city: "Rosario" },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ name: "José N.", email: "jose@example.com", notes: "Prefers mornings", attributes: { plan: "gold", city: "Rosario" } });
    const [event] = await eventsOf(account.id, "contact.updated");
    expect(event.data).toEqual({ contact: updated.body });
    // The same values again change nothing and emit nothing.
    await patchContact(agent.token, contact.id, { name: "José N." });
    expect(await eventsOf(account.id, "contact.updated")).toHaveLength(1);
    // A name a person gave wins over the network's profile name.
    await customerWrites(adminToken, { from: phone, name: "Jose Profile", text: "otra vez" });
    expect((await getContact(agent.token, contact.id)).body.name).toBe("José N.");
    expect((await getConversation(agent.token, first.conversation_id)).body.contact.name).toBe("José N.");

    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"]));
    for (const body of [{}, { email: "not-an-email" }, { attributes: tooMany }, { attributes: { plan: 5 } }, { blocked: "yes" }, { name: "x".repeat(101) }, { phone: "123" }]) {
      const res = await patchContact(agent.token, contact.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await getContact(agent.token, contact.id)).body.email).toBe("jose@example.com");
    expect((await patchContact(agent.token, "ctc_unknown", { name: "X" })).status).toBe(404);
    const readOnly = await scopedToken(adminToken, ["contacts:read"]);
    expect((await patchContact(readOnly, contact.id, { name: "X" })).status).toBe(403);
    const noContacts = await scopedToken(adminToken, ["conversations:read"]);
    expect((await call(contactsRoute.GET, { path: "/v1/contacts", token: noContacts })).status).toBe(403);

    await patchContact(agent.token, contact.id, { notes: '=HYPERLINK("x"), "quoted"\nline' });
    const csv = await call(exportRoute.GET, { path: "/v1/contacts/export", token: agent.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="contacts-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = csv.text.split("\r\n");
    expect(lines[0]).toBe("id,phone,name,email,notes,blocked,created_at,last_message_at,conversations_count,network_user_id,username,attributes");
    expect(lines.filter(Boolean)).toHaveLength(3);
    expect(csv.text).toContain(`${contact.id},${phone},José N.,jose@example.com,"'=HYPERLINK(""x""), ""quoted""\nline",false,`);
    const attributesCell = lines.find((line) => line.startsWith(contact.id))!.match(/,("\{.*\}")$/)![1];
    expect(JSON.parse(attributesCell.slice(1, -1).replace(/""/g, '"'))).toEqual({ plan: "gold", city: "Rosario" });
    expect((await call(exportRoute.GET, { path: "/v1/contacts/export", token: noContacts })).status).toBe(403);
  });

  it("a blocked contact's messages are stored silently and sends to them are refused", async () => {
    const { account, adminToken } = await createTestAccount();
    const phone = nextPhone();
    const first = await customerWrites(adminToken, { from: phone, name: "Spammer", text: "Hola" });
    await call(closeRoute.POST, { method: "POST", path: `/v1/conversations/${first.conversation_id}/close`, token: adminToken, params: { id: first.conversation_id } });
    const [contact] = await getDb().select().from(contacts).where(and(eq(contacts.accountId, account.id), eq(contacts.phone, phone)));
    const blocked = await patchContact(adminToken, contact.id, { blocked: true });
    expect(blocked.body.blocked).toBe(true);

    const receivedBefore = (await eventsOf(account.id, "message.received")).length;
    const jobsBefore = (await countRows(account.id)).jobs;
    const silent = await receiveInboundMessage(systemContext(), { accountId: account.id, inbound: { networkMessageId: `wamid.${phone}.2`, from: phone, type: "text", text: "Buy now" } });
    if (!("message" in silent)) throw new Error(`the message was skipped: ${silent.skipped}`);
    expect(silent.duplicate).toBe(false);
    const [stored] = await getDb().select().from(messages).where(eq(messages.id, silent.message.id));
    expect(stored.conversationId).toBe(first.conversation_id);
    const conversation = (await getConversation(adminToken, first.conversation_id)).body;
    expect(conversation).toMatchObject({ status: "closed", unread_count: 0 });
    expect(await eventsOf(account.id, "message.received")).toHaveLength(receivedBefore);
    expect(await eventsOf(account.id, "conversation.reopened")).toHaveLength(0);
    expect((await countRows(account.id)).jobs).toBe(jobsBefore);

    const send = await call(messagesRoute.POST, { method: "POST", path: "/v1/messages", token: adminToken, body: { to: phone, type: "text", text: "Hi" } });
    expect(send.status).toBe(409);
    expect(send.body.error.code).toBe("contact_blocked");
    const messagesBefore = (await countRows(account.id)).messages;
    expect(messagesBefore).toBe(2);

    // A blocked contact with no conversation left: the message is filed in a closed one.
    const [row] = await getDb().select().from(conversations).where(eq(conversations.id, first.conversation_id));
    await getDb().delete(conversations).where(eq(conversations.id, row.id));
    await receiveInboundMessage(systemContext(), { accountId: account.id, inbound: { networkMessageId: `wamid.${phone}.3`, from: phone, type: "text", text: "Still here" } });
    const filed = await getDb().select().from(conversations).where(eq(conversations.contactId, contact.id));
    expect(filed.map((c) => c.status)).toEqual(["closed"]);

    await patchContact(adminToken, contact.id, { blocked: false });
    const allowed = await call(messagesRoute.POST, { method: "POST", path: "/v1/messages", token: adminToken, body: { to: phone, type: "text", text: "Welcome back" } });
    expect(allowed.status).toBe(201);
  });
});
