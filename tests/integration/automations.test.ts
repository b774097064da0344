import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as sandboxInboundRoute from "@/app/api/sandbox/inbound/route";
import * as automationRoute from "@/app/v1/automations/[id]/route";
import * as previewRoute from "@/app/v1/automations/preview/route";
import * as automationsRoute from "@/app/v1/automations/route";
import * as activityRoute from "@/app/v1/conversations/[id]/activity/route";
import * as assignRoute from "@/app/v1/conversations/[id]/assign/route";
import * as closeRoute from "@/app/v1/conversations/[id]/close/route";
import * as runMacroRoute from "@/app/v1/conversations/[id]/macros/[macro_id]/route";
import * as conversationRoute from "@/app/v1/conversations/[id]/route";
import * as cannedRepliesRoute from "@/app/v1/canned-replies/route";
import * as labelsRoute from "@/app/v1/labels/route";
import * as macroRoute from "@/app/v1/macros/[id]/route";
import * as macrosRoute from "@/app/v1/macros/route";
import * as slaPoliciesRoute from "@/app/v1/sla-policies/route";
import * as teamsRoute from "@/app/v1/teams/route";
import * as templatesRoute from "@/app/v1/templates/route";
import { getDb } from "@/db";
import { auditLog, automations, macros, messages } from "@/db/schema";
import { createApiToken } from "@/lib/auth/api-tokens";
import type { Scope } from "@/lib/auth/scopes";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { call } from "@/tests/support/api";
import { addTestUser, bearerContext, createTestAccount } from "@/tests/support/fixtures";
import { eventsOf, nextPhone } from "@/tests/support/messaging";
import { seedConversation, seedMessage } from "@/tests/support/seed";
import { drain } from "@/tests/support/webhooks";

beforeEach(() => resetRateLimiters());

const createRule = (token: string, body: unknown) => call(automationsRoute.POST, { method: "POST", path: "/v1/automations", token, body });
const listRules = (token: string, query = "") => call(automationsRoute.GET, { path: `/v1/automations${query}`, token });
const patchRule = (token: string, id: string, body: unknown) => call(automationRoute.PATCH, { method: "PATCH", path: `/v1/automations/${id}`, token, params: { id }, body });
const deleteRule = (token: string, id: string) => call(automationRoute.DELETE, { method: "DELETE", path: `/v1/automations/${id}`, token, params: { id } });
const preview = (token: string, body: unknown) => call(previewRoute.POST, { method: "POST", path: "/v1/automations/preview", token, body });
const createLabel = async (token: string, name: string) => {
  const res = await call(labelsRoute.POST, { method: "POST", path: "/v1/labels", token, body: { name, color: "#dc2626" } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; name: string };
};
const getConversation = (token: string, id: string) => call(conversationRoute.GET, { path: `/v1/conversations/${id}`, token, params: { id } });
const activityOf = (token: string, id: string) => call(activityRoute.GET, { path: `/v1/conversations/${id}/activity?limit=100`, token, params: { id } });

async function customerWrites(token: string, body: Record<string, unknown>) {
  const res = await call(sandboxInboundRoute.POST, { method: "POST", path: "/api/sandbox/inbound", token, body: { type: "text", ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; conversation_id: string };
}

async function scopedToken(adminToken: string, permissions: Scope[]) {
  const ctx = await bearerContext(adminToken);
  return (await createApiToken({ ctx, input: { name: "scoped", permissions, expires_at: new Date(Date.now() + 3 * 86_400_000) } })).token;
}

describe("automations API", () => {
  it("creates, lists, reorders, changes and deletes rules; agents and read-only tokens may not write", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const label = await createLabel(adminToken, "Pricing");
    const rule = { name: "Price questions", event: "message.received", conditions: [{ field: "message.text", operator: "contains", value: "price" }], actions: [{ type: "add_label", label_id: label.id }] };

    const first = await createRule(adminToken, rule);
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ id: expect.stringMatching(/^auto_/), name: "Price questions", enabled: true, position: 0, conditions: rule.conditions, actions: rule.actions });
    const second = await createRule(adminToken, { ...rule, name: "Second" });
    expect(second.body.position).toBe(1);
    const top = await createRule(adminToken, { ...rule, name: "Top", position: 0 });
    expect(top.body.position).toBe(0);

    const listed = await listRules(agent.token, "?limit=2");
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((r: { name: string }) => r.name)).toEqual(["Price questions", "Second"]);
    expect(listed.body.pagination.has_more).toBe(true);
    const order = async () => (await getDb().select().from(automations).where(eq(automations.accountId, account.id)).orderBy(automations.position)).map((r) => r.name);
    expect(await order()).toEqual(["Top", "Price questions", "Second"]);

    const moved = await patchRule(adminToken, top.body.id, { position: 5, enabled: false });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ position: 2, enabled: false });
    expect(await order()).toEqual(["Price questions", "Second", "Top"]);

    expect((await createRule(agent.token, rule)).status).toBe(403);
    expect((await patchRule(agent.token, first.body.id, { enabled: false })).status).toBe(403);
    expect((await deleteRule(agent.token, first.body.id)).status).toBe(403);
    const readOnly = await scopedToken(adminToken, ["config:read"]);
    const refused = await createRule(readOnly, rule);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("insufficient_scope");
    expect((await listRules(readOnly)).status).toBe(200);

    expect((await deleteRule(adminToken, first.body.id)).status).toBe(204);
    expect(await order()).toEqual(["Second", "Top"]);
    expect((await deleteRule(adminToken, first.body.id)).status).toBe(404);

    const other = await createTestAccount();
    expect((await patchRule(other.adminToken, second.body.id, { enabled: false })).status).toBe(404);

    const audited = await getDb().select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.accountId, account.id));
    expect(audited.map((a) => a.action)).toEqual(expect.arrayContaining(["automation.created", "automation.updated", "automation.deleted"]));
  });

  it("refuses unknown references, unsafe patterns and malformed rules with a 400, and saves nothing", async () => {
    const { account, adminToken } = await createTestAccount();
    const other = await createTestAccount();
    const foreignLabel = await createLabel(other.adminToken, "Theirs");
    const base = { name: "Rule", event: "message.received", conditions: [], actions: [{ type: "close" }] };
    const expect400 = async (body: unknown, path: string) => {
      const res = await createRule(adminToken, body);
      expect(res.status, res.text).toBe(400);
      expect(res.body.error.code).toBe("validation_error");
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    };
    await expect400({ ...base, actions: [{ type: "close" }, { type: "add_label", label_id: foreignLabel.id }] }, "actions.1.label_id");
    await expect400({ ...base, actions: [{ type: "assign_user", user_id: "usr_01jd2x8k3f0m6q1v9w4r7t5y2z" }] }, "actions.0.user_id");
    await expect400({ ...base, actions: [{ type: "assign_user", user_id: other.admin.id }] }, "actions.0.user_id");
    await expect400({ ...base, actions: [{ type: "send_canned_reply", canned_reply_id: "cr_01jd2x8k3f0m6q1v9w4r7t5y2z" }] }, "actions.0.canned_reply_id");
    await expect400({ ...base, actions: [{ type: "send_template", name: "nope", language: "en", variables: [] }] }, "actions.0.name");
    await expect400({ ...base, actions: [{ type: "launch_rocket" }] }, "actions.0.type");
    await expect400({ ...base, actions: [] }, "actions");
    await expect400({ ...base, event: "sla.exploded" }, "event");
    // Patterns that backtrack for ever on a regex engine with backtracking, or are too long.
    await expect400({ ...base, conditions: [{ field: "message.text", operator: "matches", value: "(a)\\1" }] }, "conditions.0.value");
    await expect400({ ...base, conditions: [{ field: "message.text", operator: "matches", value: "(?=price)price" }] }, "conditions.0.value");
    await expect400({ ...base, conditions: [{ field: "message.text", operator: "matches", value: "a".repeat(201) }] }, "conditions.0.value");
    await expect400({ ...base, conditions: [{ field: "message.text", operator: "matches", value: "(a{1,1000})" }] }, "conditions.0.value");
    await expect400({ ...base, conditions: [{ field: "message.text", operator: "matches", value: "([a-z" }] }, "conditions.0.value");
    await expect400({ ...base, conditions: [{ field: "message.text", operator: "contains" }] }, "conditions.0.value");
    await expect400({ ...base, conditions: [{ field: "contact.shoe_size", operator: "is_present" }] }, "conditions.0.field");
    await expect400({ ...base, conditions: [{ field: "business_hours", operator: "equals", value: "lunch" }] }, "conditions.0.value");
    const notJson = await call(automationsRoute.POST, { method: "POST", path: "/v1/automations", token: adminToken, rawBody: "{", headers: { "content-type": "application/json" } });
    expect(notJson.status).toBe(400);
    expect(await getDb().select().from(automations).where(eq(automations.accountId, account.id))).toEqual([]);

    // A nested quantifier is accepted: it runs on a linear-time engine, so it cannot stall.
    const nested = await createRule(adminToken, { ...base, conditions: [{ field: "message.text", operator: "matches", value: "^(a+)+$" }], actions: [{ type: "emit_webhook" }] });
    expect(nested.status, nested.text).toBe(201);
    const started = Date.now();
    await customerWrites(adminToken, { from: nextPhone(), text: `${"a".repeat(4000)}!` });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("previews how many recent conversations a rule would match", async () => {
    const { adminToken } = await createTestAccount();
    await customerWrites(adminToken, { from: nextPhone(), text: "What is the PRICE of a fern?" });
    await customerWrites(adminToken, { from: nextPhone(), text: "Do you deliver?" });
    await customerWrites(adminToken, { from: nextPhone(), text: "price list please" });
    const res = await preview(adminToken, { event: "message.received", conditions: [{ field: "message.text", operator: "matches", value: "\\bprice\\b" }] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ matched: 2, sampled: 3, cut_short: false });
    expect((await preview(adminToken, { event: "message.received", conditions: [] })).body).toEqual({ matched: 3, sampled: 3, cut_short: false });
    expect((await preview(adminToken, { event: "message.received", conditions: [{ field: "message.text", operator: "matches", value: "(x)\\1" }] })).status).toBe(400);
  });
});

describe("the cost of a pattern", () => {
  it("a pattern that compiles to a huge program is refused when saved or previewed, naming the condition", async () => {
    const { account, adminToken } = await createTestAccount();
    // Nested counted repeats: about 2,000 RE2 instructions, tens of milliseconds per long message.
    const heavy = { field: "message.text", operator: "matches", value: "(\\pL{1,31}){1,31}q" };
    const saved = await createRule(adminToken, { name: "Heavy", event: "message.received", conditions: [heavy], actions: [{ type: "close" }] });
    expect(saved.status, saved.text).toBe(400);
    expect(saved.body.error.details).toEqual([expect.objectContaining({ path: "conditions.0.value", message: expect.stringContaining("too complex") })]);
    expect(await getDb().select().from(automations).where(eq(automations.accountId, account.id))).toEqual([]);
    const previewed = await preview(adminToken, { event: "message.received", conditions: [{ field: "contact.name", operator: "is_present" }, heavy] });
    expect(previewed.status, previewed.text).toBe(400);
    expect(previewed.body.error.details[0].path).toBe("conditions.1.value");
  });

  it("a preview that would hold the server for seconds stops within its budget and says it was cut short", async () => {
    const { account } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const total = 120;
    const start = Date.now() - total * 60_000;
    for (let i = 0; i < total; i++) {
      const { contact, conversation } = await seedConversation({ accountId: account.id, createdAt: new Date(start + i * 60_000) });
      // A long message the heavy pattern must scan to its end (no "q" in it).
      await seedMessage({ accountId: account.id, conversationId: conversation.id, phone: contact.phone!, direction: "inbound", text: "é".repeat(4000), createdAt: new Date(start + i * 60_000) });
    }
    // The largest allowed pattern of its kind: each test still costs tens of milliseconds here,
    // seconds over the whole sample.
    const res = await preview(agent.token, { event: "message.received", conditions: [{ field: "message.text", operator: "matches", value: "(\\pL{1,15}){1,15}q" }] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.cut_short).toBe(true);
    expect(res.body.matched).toBe(0);
    expect(res.body.sampled).toBeLessThan(total);

    // A cheap rule over the same sample is not cut short.
    const cheap = await preview(agent.token, { event: "message.received", conditions: [{ field: "message.text", operator: "contains", value: "price" }] });
    expect(cheap.body).toEqual({ matched: 0, sampled: total, cut_short: false });
  });
});

describe("the engine", () => {
  it("labels and assigns a price question on message.received, in the activity trail and the audit log", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent", "Sally Sales");
    const label = await createLabel(adminToken, "Sales");
    const rule = await createRule(adminToken, {
      name: "Price questions to Sally",
      event: "message.received",
      conditions: [
        { field: "message.text", operator: "matches", value: "\\b(price|cost)s?\\b" },
        { field: "conversation.assignee_id", operator: "is_absent" },
      ],
      actions: [
        { type: "add_label", label_id: label.id },
        { type: "assign_user", user_id: agent.user.id },
      ],
    });
    expect(rule.status, rule.text).toBe(201);

    const other = await customerWrites(adminToken, { from: nextPhone(), text: "Do you deliver on Sundays?" });
    const asked = await customerWrites(adminToken, { from: nextPhone(), text: "What do your PRICES look like?" });

    const untouched = await getConversation(adminToken, other.conversation_id);
    expect(untouched.body).toMatchObject({ status: "open", assigned_to: null, labels: [] });
    const matched = await getConversation(adminToken, asked.conversation_id);
    expect(matched.body).toMatchObject({ status: "assigned", assigned_to: agent.user.id, labels: [{ id: label.id, name: "Sales" }] });

    const assigned = (await eventsOf(account.id, "conversation.assigned")).filter((e) => (e.data as { conversation: { id: string } }).conversation.id === asked.conversation_id);
    expect(assigned).toHaveLength(1);
    const trail = (await activityOf(adminToken, asked.conversation_id)).body.data as { type: string; actor: { type: string }; data: Record<string, unknown> }[];
    const run = trail.find((a) => a.type === "automation");
    expect(run).toMatchObject({ actor: { type: "automation" }, data: { automation: { id: rule.body.id, name: "Price questions to Sally" }, event: "message.received", actions: [{ type: "add_label", result: "done" }, { type: "assign_user", result: "done" }] } });
    expect(trail.find((a) => a.type === "assigned")).toMatchObject({ actor: { type: "automation" }, data: { assignee: { id: agent.user.id }, automation: { id: rule.body.id } } });
    expect(trail.find((a) => a.type === "labeled")).toMatchObject({ actor: { type: "automation" } });
    const audited = await getDb().select().from(auditLog).where(and(eq(auditLog.accountId, account.id), eq(auditLog.action, "automation.ran")));
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ actorType: "automation", actorId: rule.body.id, targetId: asked.conversation_id });

    // The second message: the conversation is now assigned, so the rule's condition fails.
    await customerWrites(adminToken, { from: (matched.body as { contact: { phone: string } }).contact.phone, text: "and the cost of pots?" });
    expect(await getDb().select().from(auditLog).where(and(eq(auditLog.accountId, account.id), eq(auditLog.action, "automation.ran")))).toHaveLength(1);
  });

  it("never loops: a rule on conversation.assigned that assigns runs once, and rules on the same event run in position order", async () => {
    const { account, adminToken } = await createTestAccount();
    const ana = await addTestUser(account.id, "agent", "Ana");
    const bruno = await addTestUser(account.id, "agent", "Bruno");
    const label = await createLabel(adminToken, "Passed on");
    // Ping-pong: whoever gets it, the rules hand it to the other.
    await createRule(adminToken, { name: "Ana → Bruno", event: "conversation.assigned", conditions: [{ field: "conversation.assignee_id", operator: "equals", value: ana.user.id }], actions: [{ type: "assign_user", user_id: bruno.user.id }, { type: "add_label", label_id: label.id }] });
    await createRule(adminToken, { name: "Bruno → Ana", event: "conversation.assigned", conditions: [{ field: "conversation.assignee_id", operator: "equals", value: bruno.user.id }], actions: [{ type: "assign_user", user_id: ana.user.id }] });
    const written = await customerWrites(adminToken, { from: nextPhone(), text: "hello" });

    const res = await call(assignRoute.POST, { method: "POST", path: `/v1/conversations/${written.conversation_id}/assign`, token: adminToken, params: { id: written.conversation_id }, body: { user_id: ana.user.id } });
    expect(res.status, res.text).toBe(200);
    // Rule 1 moved it to Bruno; rule 2 (later in order, seeing Bruno) moved it back to Ana; the
    // assignments the rules made triggered nothing more.
    const after = await getConversation(adminToken, written.conversation_id);
    expect(after.body.assigned_to).toBe(ana.user.id);
    const assigned = await eventsOf(account.id, "conversation.assigned");
    expect(assigned).toHaveLength(3);
    const runs = await getDb().select().from(auditLog).where(and(eq(auditLog.accountId, account.id), eq(auditLog.action, "automation.ran")));
    expect(runs.map((r) => r.actorName)).toEqual(["Ana → Bruno", "Bruno → Ana"]);
  });

  it("sends a canned reply, adds a note, emits automation.triggered and snoozes, on conversation.created", async () => {
    const { account, adminToken } = await createTestAccount();
    const reply = await call(cannedRepliesRoute.POST, { method: "POST", path: "/v1/canned-replies", token: adminToken, body: { shortcut: "welcome", text: "Hi {{contact.name}}, welcome to {{business.name}}!" } });
    expect(reply.status, reply.text).toBe(201);
    const rule = await createRule(adminToken, {
      name: "Welcome",
      event: "conversation.created",
      conditions: [{ field: "contact.name", operator: "starts_with", value: "mar" }],
      actions: [{ type: "send_canned_reply", canned_reply_id: reply.body.id }, { type: "add_note", text: "Greeted automatically." }, { type: "emit_webhook" }, { type: "snooze", duration_s: 3600 }],
    });
    expect(rule.status, rule.text).toBe(201);
    const written = await customerWrites(adminToken, { from: nextPhone(), name: "Marta", text: "hola" });
    const sent = await getDb().select().from(messages).where(and(eq(messages.conversationId, written.conversation_id), eq(messages.direction, "outbound")));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ senderType: "automation", text: expect.stringMatching(/^Hi Marta, welcome to /) });
    const triggered = await eventsOf(account.id, "automation.triggered");
    expect(triggered).toHaveLength(1);
    expect(triggered[0].data).toMatchObject({ automation: { id: rule.body.id, name: "Welcome" }, trigger: { type: "conversation.created" }, conversation: { id: written.conversation_id } });
    expect((await eventsOf(account.id, "note.created"))).toHaveLength(1);
    // The rule ran when the conversation was created, before the first message was stored: it
    // snoozed the conversation that message then joined.
    expect((await getConversation(adminToken, written.conversation_id)).body.status).toBe("snoozed");
    expect((await eventsOf(account.id, "conversation.snoozed"))).toHaveLength(1);

    // Not for Bob.
    await customerWrites(adminToken, { from: nextPhone(), name: "Bob", text: "hi" });
    expect(await eventsOf(account.id, "automation.triggered")).toHaveLength(1);
  });

  it("a closing rule on conversation.closed is not triggered by its own close, and a disabled rule does nothing", async () => {
    const { account, adminToken } = await createTestAccount();
    const label = await createLabel(adminToken, "Done");
    await createRule(adminToken, { name: "Tag closed", event: "conversation.closed", actions: [{ type: "add_label", label_id: label.id }] });
    await createRule(adminToken, { name: "Off", enabled: false, event: "conversation.closed", actions: [{ type: "emit_webhook" }] });
    await createRule(adminToken, { name: "Close thanks", event: "message.received", conditions: [{ field: "message.text", operator: "equals", value: "thanks!" }], actions: [{ type: "close" }] });
    const thanked = await customerWrites(adminToken, { from: nextPhone(), text: "Thanks!" });
    // Closed by a rule: conversation.closed recorded, but the closed-rule does not run for it.
    expect((await getConversation(adminToken, thanked.conversation_id)).body).toMatchObject({ status: "closed", labels: [] });
    const other = await customerWrites(adminToken, { from: nextPhone(), text: "bye" });
    const closed = await call(closeRoute.POST, { method: "POST", path: `/v1/conversations/${other.conversation_id}/close`, token: adminToken, params: { id: other.conversation_id }, body: {} });
    expect(closed.status, closed.text).toBe(200);
    expect((await getConversation(adminToken, other.conversation_id)).body.labels).toEqual([{ id: label.id, name: "Done", color: "#dc2626" }]);
    expect(await eventsOf(account.id, "automation.triggered")).toHaveLength(0);
  });
});

describe("the rules the engine keeps", () => {
  it("are read again as soon as they change, through the API or by another process writing the table", async () => {
    const { adminToken } = await createTestAccount();
    const label = await createLabel(adminToken, "Pricing");
    const rule = await createRule(adminToken, { name: "Prices", event: "message.received", conditions: [{ field: "message.text", operator: "contains", value: "price" }], actions: [{ type: "add_label", label_id: label.id }] });
    expect(rule.status, rule.text).toBe(201);
    const labelled = async (text: string) => {
      const { conversation_id } = await customerWrites(adminToken, { from: nextPhone(), text });
      return ((await getConversation(adminToken, conversation_id)).body.labels as { id: string }[]).some((l) => l.id === label.id);
    };
    expect(await labelled("the price?")).toBe(true);
    expect(await labelled("the cost?")).toBe(false);

    expect((await patchRule(adminToken, rule.body.id, { conditions: [{ field: "message.text", operator: "contains", value: "cost" }] })).status).toBe(200);
    expect(await labelled("the price?")).toBe(false);
    expect(await labelled("the cost?")).toBe(true);

    // Another server process changes the rule: this one has no word of it but the table's.
    await getDb()
      .update(automations)
      .set({ conditions: [{ field: "message.text", operator: "contains", value: "tarif" }], updatedAt: new Date(Date.now() + 1000) })
      .where(eq(automations.id, rule.body.id));
    expect(await labelled("the cost?")).toBe(false);
    expect(await labelled("your tarif?")).toBe(true);
    await getDb().update(automations).set({ enabled: false, updatedAt: new Date(Date.now() + 2000) }).where(eq(automations.id, rule.body.id));
    expect(await labelled("your tarif?")).toBe(false);
    await getDb().update(automations).set({ enabled: true, updatedAt: new Date(Date.now() + 3000) }).where(eq(automations.id, rule.body.id));
    expect(await labelled("your tarif?")).toBe(true);
    expect((await deleteRule(adminToken, rule.body.id)).status).toBe(204);
    expect(await labelled("your tarif?")).toBe(false);
  });
});

describe("a refused action", () => {
  it("is skipped with its reason while the message and the rule's other actions commit; the same in a macro refuses the whole run", async () => {
    const { adminToken } = await createTestAccount();
    const label = await createLabel(adminToken, "Asked");
    // Still PENDING: the network has not approved it, so it cannot be sent yet.
    const template = await call(templatesRoute.POST, { method: "POST", path: "/v1/templates", token: adminToken, body: { name: "order_ready", language: "en_US", category: "UTILITY", components: { body: { text: "Hi {{1}}, your order is ready." } } } });
    expect(template.status, template.text).toBe(201);
    await createRule(adminToken, { name: "Template first", event: "message.received", actions: [{ type: "send_template", name: "order_ready", language: "en_US", variables: ["Ana"] }, { type: "add_label", label_id: label.id }] });
    const written = await customerWrites(adminToken, { from: nextPhone(), text: "is my order ready?" });
    const conversation = await getConversation(adminToken, written.conversation_id);
    expect(conversation.body.labels).toEqual([{ id: label.id, name: "Asked", color: "#dc2626" }]);
    const trail = (await activityOf(adminToken, written.conversation_id)).body.data as { type: string; data: { actions?: unknown[] } }[];
    expect(trail.find((a) => a.type === "automation")?.data.actions).toEqual([
      { type: "send_template", result: "skipped", reason: expect.stringContaining("PENDING") },
      { type: "add_label", result: "done" },
    ]);
    expect(await getDb().select().from(messages).where(and(eq(messages.conversationId, written.conversation_id), eq(messages.direction, "outbound")))).toEqual([]);

    const other = await createLabel(adminToken, "Other");
    const macro = await call(macrosRoute.POST, { method: "POST", path: "/v1/macros", token: adminToken, body: { name: "Label then template", actions: [{ type: "add_label", label_id: other.id }, { type: "send_template", name: "order_ready", language: "en_US", variables: ["Ana"] }] } });
    const ran = await call(runMacroRoute.POST, { method: "POST", path: `/v1/conversations/${written.conversation_id}/macros/${macro.body.id}`, token: adminToken, params: { id: written.conversation_id, macro_id: macro.body.id } });
    expect(ran.status).toBe(409);
    expect(ran.body.error.code).toBe("template_not_approved");
    expect((await getConversation(adminToken, written.conversation_id)).body.labels.map((l: { id: string }) => l.id)).toEqual([label.id]);
  });
});

describe("macros", () => {
  it("are saved, listed by visibility, run on a conversation in one call and refused when they name unknown things", async () => {
    const { account, adminToken, admin } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent", "Alex");
    const label = await createLabel(adminToken, "Refund");
    const body = { name: "Refund and close", visibility: "account", actions: [{ type: "add_label", label_id: label.id }, { type: "assign_user", user_id: admin.id }, { type: "add_note", text: "Refund issued." }, { type: "close" }] };
    const shared = await call(macrosRoute.POST, { method: "POST", path: "/v1/macros", token: adminToken, body });
    expect(shared.status, shared.text).toBe(201);
    expect(shared.body).toMatchObject({ id: expect.stringMatching(/^mac_/), visibility: "account", owner_id: admin.id });
    // An agent may keep personal macros but not share one.
    const agentShared = await call(macrosRoute.POST, { method: "POST", path: "/v1/macros", token: agent.token, body });
    expect(agentShared.status).toBe(403);
    const mine = await call(macrosRoute.POST, { method: "POST", path: "/v1/macros", token: agent.token, body: { name: "Mine", actions: [{ type: "add_label", label_id: label.id }] } });
    expect(mine.status, mine.text).toBe(201);
    expect(mine.body.visibility).toBe("personal");
    const bad = await call(macrosRoute.POST, { method: "POST", path: "/v1/macros", token: agent.token, body: { name: "Bad", actions: [{ type: "add_label", label_id: "lbl_01jd2x8k3f0m6q1v9w4r7t5y2z" }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("actions.0.label_id");
    expect((await call(macrosRoute.POST, { method: "POST", path: "/v1/macros", token: adminToken, body: { name: "Hook", actions: [{ type: "emit_webhook" }] } })).status).toBe(400);
    expect(await getDb().select().from(macros).where(eq(macros.accountId, account.id))).toHaveLength(2);

    const agentList = await call(macrosRoute.GET, { path: "/v1/macros", token: agent.token });
    expect(agentList.body.data.map((m: { name: string }) => m.name)).toEqual(["Refund and close", "Mine"]);
    const adminList = await call(macrosRoute.GET, { path: "/v1/macros", token: adminToken });
    expect(adminList.body.data.map((m: { name: string }) => m.name)).toEqual(["Refund and close"]);
    // Someone else's personal macro does not exist for the admin; the shared one is theirs to change.
    expect((await call(macroRoute.PATCH, { method: "PATCH", path: `/v1/macros/${mine.body.id}`, token: adminToken, params: { id: mine.body.id }, body: { name: "x" } })).status).toBe(404);
    expect((await call(macroRoute.PATCH, { method: "PATCH", path: `/v1/macros/${shared.body.id}`, token: agent.token, params: { id: shared.body.id }, body: { name: "x" } })).status).toBe(403);
    const renamed = await call(macroRoute.PATCH, { method: "PATCH", path: `/v1/macros/${mine.body.id}`, token: agent.token, params: { id: mine.body.id }, body: { name: "Mine too" } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.name).toBe("Mine too");

    const written = await customerWrites(adminToken, { from: nextPhone(), text: "I want my money back" });
    const run = (token: string, id: string, macroId: string) =>
      call(runMacroRoute.POST, { method: "POST", path: `/v1/conversations/${id}/macros/${macroId}`, token, params: { id, macro_id: macroId } });
    const ran = await run(agent.token, written.conversation_id, shared.body.id);
    expect(ran.status, ran.text).toBe(200);
    expect(ran.body).toEqual({
      macro_id: shared.body.id,
      conversation_id: written.conversation_id,
      actions: [
        { type: "add_label", result: "done" },
        { type: "assign_user", result: "done" },
        { type: "add_note", result: "done" },
        { type: "close", result: "done" },
      ],
    });
    expect((await getConversation(adminToken, written.conversation_id)).body).toMatchObject({ status: "closed", assigned_to: admin.id, labels: [{ id: label.id }] });
    const trail = (await activityOf(adminToken, written.conversation_id)).body.data as { type: string; actor: { type: string; id?: string } }[];
    expect(trail.find((a) => a.type === "macro")).toMatchObject({ actor: { type: "user", id: agent.user.id } });
    expect(trail.find((a) => a.type === "closed")).toMatchObject({ actor: { type: "user", id: agent.user.id } });
    // Run again: the label is there and it is closed; nothing to do but nothing refused.
    const again = await run(agent.token, written.conversation_id, mine.body.id);
    expect(again.body.actions).toEqual([{ type: "add_label", result: "skipped", reason: "the conversation already has the label" }]);
    expect((await run(adminToken, written.conversation_id, mine.body.id)).status).toBe(404);
    expect((await run(agent.token, "conv_01jd2x8k3f0m6q1v9w4r7t5y2z", shared.body.id)).status).toBe(404);

    expect((await call(macroRoute.DELETE, { method: "DELETE", path: `/v1/macros/${shared.body.id}`, token: agent.token, params: { id: shared.body.id } })).status).toBe(403);
    expect((await call(macroRoute.DELETE, { method: "DELETE", path: `/v1/macros/${shared.body.id}`, token: adminToken, params: { id: shared.body.id } })).status).toBe(204);
  });
});

describe("a macro that sends", () => {
  it("needs messages:write as sending by hand does: a token without it gets a 403 and nothing is sent or changed", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent", "Alex");
    const label = await createLabel(adminToken, "Welcomed");
    const reply = await call(cannedRepliesRoute.POST, { method: "POST", path: "/v1/canned-replies", token: adminToken, body: { shortcut: "hello", text: "Hello {{contact.name}}!" } });
    expect(reply.status, reply.text).toBe(201);
    const create = (body: unknown) => call(macrosRoute.POST, { method: "POST", path: "/v1/macros", token: agent.token, body });
    const greet = await create({ name: "Greet", actions: [{ type: "add_label", label_id: label.id }, { type: "send_canned_reply", canned_reply_id: reply.body.id }] });
    expect(greet.status, greet.text).toBe(201);
    const tag = await create({ name: "Tag", actions: [{ type: "add_label", label_id: label.id }] });
    const written = await customerWrites(adminToken, { from: nextPhone(), text: "Hi there" });
    const run = (token: string, macroId: string) =>
      call(runMacroRoute.POST, { method: "POST", path: `/v1/conversations/${written.conversation_id}/macros/${macroId}`, token, params: { id: written.conversation_id, macro_id: macroId } });
    const outbound = async () => (await getDb().select().from(messages).where(and(eq(messages.accountId, account.id), eq(messages.direction, "outbound")))).length;

    const agentCtx = await bearerContext(agent.token);
    const token = async (permissions: Scope[]) => (await createApiToken({ ctx: agentCtx, input: { name: "bot", permissions, expires_at: new Date(Date.now() + 3 * 86_400_000) } })).token;
    const organiseOnly = await token(["conversations:read", "conversations:write"]);
    const refused = await run(organiseOnly, greet.body.id);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.error.code).toBe("insufficient_scope");
    expect(refused.body.error.details).toEqual([expect.objectContaining({ scope: "messages:write" })]);
    expect(await outbound()).toBe(0);
    expect((await getConversation(adminToken, written.conversation_id)).body.labels).toEqual([]);

    // The same token may run a macro that only organises.
    expect((await run(organiseOnly, tag.body.id)).status).toBe(200);
    // With messages:write the greeting goes out.
    const sender = await token(["conversations:read", "conversations:write", "messages:write"]);
    const sent = await run(sender, greet.body.id);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.actions).toEqual([
      { type: "add_label", result: "skipped", reason: "the conversation already has the label" },
      { type: "send_canned_reply", result: "done" },
    ]);
    expect(await outbound()).toBe(1);
  });
});

describe("team workflow in rules and macros", () => {
  const createTeam = async (token: string, name: string) => {
    const res = await call(teamsRoute.POST, { method: "POST", path: "/v1/teams", token, body: { name } });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: string; name: string };
  };
  const createSla = async (token: string, body: Record<string, unknown>) => {
    const res = await call(slaPoliciesRoute.POST, { method: "POST", path: "/v1/sla-policies", token, body });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: string; name: string };
  };
  type Entry = { type: string; actor: { type: string }; data: Record<string, unknown> };

  it("an urgent price question in any language is labelled, made urgent and handed to Sales, each step in the trail as the automation", async () => {
    const { account, adminToken } = await createTestAccount();
    const label = await createLabel(adminToken, "Pricing");
    const followUp = await createLabel(adminToken, "Sales follow-up");
    const sales = await createTeam(adminToken, "Sales");
    const rule = await createRule(adminToken, {
      name: "Urgent price questions to Sales",
      event: "message.received",
      conditions: [{ field: "message.text", operator: "matches", value: "price|precio|preço" }],
      actions: [
        { type: "add_label", label_id: label.id },
        { type: "set_priority", priority: "urgent" },
        { type: "assign_team", team_id: sales.id },
      ],
    });
    expect(rule.status, rule.text).toBe(201);
    expect(rule.body.actions).toEqual([
      { type: "add_label", label_id: label.id },
      { type: "set_priority", priority: "urgent" },
      { type: "assign_team", team_id: sales.id },
    ]);
    // A later rule sees the priority and the team the first one set.
    const second = await createRule(adminToken, {
      name: "Sales urgent follow-up",
      event: "message.received",
      conditions: [
        { field: "conversation.priority", operator: "equals", value: "urgent" },
        { field: "conversation.team_id", operator: "equals", value: sales.id },
      ],
      actions: [{ type: "add_label", label_id: followUp.id }],
    });
    expect(second.status, second.text).toBe(201);

    const quiet = await customerWrites(adminToken, { from: nextPhone(), text: "Do you deliver on Sundays?" });
    const asked = await customerWrites(adminToken, { from: nextPhone(), text: "¿Cuál es el PRECIO de la monstera?" });

    expect((await getConversation(adminToken, quiet.conversation_id)).body).toMatchObject({ priority: null, team_id: null, labels: [] });
    const matched = await getConversation(adminToken, asked.conversation_id);
    expect(matched.body).toMatchObject({ priority: "urgent", team_id: sales.id, labels: [{ id: label.id }, { id: followUp.id }] });

    const trail = (await activityOf(adminToken, asked.conversation_id)).body.data as Entry[];
    const runs = trail.filter((a) => a.type === "automation");
    expect(runs.map((r) => r.data.automation)).toEqual(
      expect.arrayContaining([
        { id: rule.body.id, name: "Urgent price questions to Sales" },
        { id: second.body.id, name: "Sales urgent follow-up" },
      ]),
    );
    expect(runs.find((r) => (r.data.automation as { id: string }).id === rule.body.id)).toMatchObject({
      actor: { type: "automation" },
      data: { event: "message.received", actions: [{ type: "add_label", result: "done" }, { type: "set_priority", result: "done" }, { type: "assign_team", result: "done" }] },
    });
    expect(trail.find((a) => a.type === "labeled")).toMatchObject({ actor: { type: "automation" } });
    // Each change names the rule, so the thread reads “Automation “…” set the priority to urgent”.
    const byRule = { automation: { id: rule.body.id, name: "Urgent price questions to Sales" } };
    expect(trail.find((a) => a.type === "priority_changed")).toMatchObject({ actor: { type: "automation" }, data: { priority: "urgent", ...byRule } });
    expect(trail.find((a) => a.type === "team_changed")).toMatchObject({ actor: { type: "automation" }, data: { team: { id: sales.id, name: "Sales" }, ...byRule } });

    // The next price question on the same conversation changes nothing more: each action says why.
    await customerWrites(adminToken, { from: (matched.body as { contact: { phone: string } }).contact.phone, text: "e o preço dos vasos?" });
    const later = ((await activityOf(adminToken, asked.conversation_id)).body.data as Entry[]).filter((a) => a.type === "automation" && (a.data.automation as { id: string }).id === rule.body.id);
    expect(later).toHaveLength(2);
    expect(later.map((r) => r.data.actions)).toContainEqual([
      { type: "add_label", result: "skipped", reason: "the conversation already has the label" },
      { type: "set_priority", result: "skipped", reason: "the conversation already has that priority" },
      { type: "assign_team", result: "skipped", reason: "the conversation is already with the team" },
    ]);

    // The preview knows the new fields.
    const previewed = await preview(adminToken, { event: "message.received", conditions: [{ field: "conversation.priority", operator: "equals", value: "urgent" }] });
    expect(previewed.body).toEqual({ matched: 1, sampled: 2, cut_short: false });
    void account;
  });

  it("a rule on sla.breached raises the priority, once, when the first answer is late", async () => {
    const { account, adminToken } = await createTestAccount();
    const policy = await createSla(adminToken, { name: "Quick: 15 minutes", first_response_s: 900 });
    const applied = await createRule(adminToken, { name: "Every chat gets the quick SLA", event: "message.received", conditions: [], actions: [{ type: "apply_sla", sla_policy_id: policy.id }] });
    expect(applied.status, applied.text).toBe(201);
    const raised = await createRule(adminToken, {
      name: "Late answers go high",
      event: "sla.breached",
      conditions: [{ field: "conversation.priority", operator: "is_absent" }],
      actions: [{ type: "set_priority", priority: "high" }, { type: "assign_by_policy" }],
    });
    expect(raised.status, raised.text).toBe(201);

    const { conversation_id } = await customerWrites(adminToken, { from: nextPhone(), text: "Hello?" });
    const started = (await getConversation(adminToken, conversation_id)).body;
    expect(started).toMatchObject({ priority: null, sla: { policy_id: policy.id, kind: "first_response", status: "ok" } });
    const trail = async () => (await activityOf(adminToken, conversation_id)).body.data as Entry[];
    expect((await trail()).find((a) => a.type === "sla_applied")).toMatchObject({ actor: { type: "automation" }, data: { sla_policy: { id: policy.id }, automation: { id: applied.body.id } } });

    await drain(16 * 60_000);
    await drain(30 * 60_000);
    const late = (await getConversation(adminToken, conversation_id)).body;
    expect(late).toMatchObject({ priority: "high", sla: { status: "breached" } });
    expect(await eventsOf(account.id, "sla.breached")).toHaveLength(1);
    const runs = (await trail()).filter((a) => a.type === "automation" && a.data.event === "sla.breached");
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      actor: { type: "automation" },
      data: {
        automation: { id: raised.body.id },
        actions: [
          { type: "set_priority", result: "done" },
          // Without an automatic assignment policy nobody is picked: the conversation waits.
          { type: "assign_by_policy", result: "skipped" },
        ],
      },
    });
    expect((await trail()).find((a) => a.type === "priority_changed")).toMatchObject({ actor: { type: "automation" }, data: { priority: "high", automation: { id: raised.body.id, name: "Late answers go high" } } });
  });

  it("refuses unknown or foreign teams and SLA policies, bad priorities and malformed ids with a 400 naming the field, and saves nothing", async () => {
    const { account, adminToken } = await createTestAccount();
    const other = await createTestAccount();
    const theirTeam = await createTeam(other.adminToken, "Their sales");
    const theirSla = await createSla(other.adminToken, { name: "Theirs", first_response_s: 600 });
    const base = { name: "Rule", event: "message.received", conditions: [], actions: [{ type: "close" }] };
    const expect400 = async (res: Awaited<ReturnType<typeof call>>, path: string) => {
      expect(res.status, res.text).toBe(400);
      expect(res.body.error.code).toBe("validation_error");
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    };
    const rule = (body: unknown) => createRule(adminToken, body);
    const macro = (body: unknown) => call(macrosRoute.POST, { method: "POST", path: "/v1/macros", token: adminToken, body });

    await expect400(await rule({ ...base, actions: [{ type: "assign_team", team_id: theirTeam.id }] }), "actions.0.team_id");
    await expect400(await rule({ ...base, actions: [{ type: "close" }, { type: "assign_team", team_id: "team_01jd2x8k3f0m6q1v9w4r7t5y2z" }] }), "actions.1.team_id");
    await expect400(await rule({ ...base, actions: [{ type: "assign_team", team_id: "sales" }] }), "actions.0.team_id");
    await expect400(await rule({ ...base, actions: [{ type: "assign_team" }] }), "actions.0.team_id");
    await expect400(await rule({ ...base, actions: [{ type: "apply_sla", sla_policy_id: theirSla.id }] }), "actions.0.sla_policy_id");
    await expect400(await rule({ ...base, actions: [{ type: "apply_sla", sla_policy_id: "sla_01jd2x8k3f0m6q1v9w4r7t5y2z" }] }), "actions.0.sla_policy_id");
    await expect400(await rule({ ...base, actions: [{ type: "set_priority", priority: "critical" }] }), "actions.0.priority");
    await expect400(await rule({ ...base, actions: [{ type: "set_priority" }] }), "actions.0.priority");
    await expect400(await rule({ ...base, actions: [{ type: "assign_by_policy", team_id: theirTeam.id }] }), "actions.0");
    await expect400(await rule({ ...base, conditions: [{ field: "conversation.priority", operator: "equals", value: "critical" }] }), "conditions.0.value");
    await expect400(await macro({ name: "To their team", actions: [{ type: "assign_team", team_id: theirTeam.id }] }), "actions.0.team_id");
    await expect400(await macro({ name: "Their SLA", actions: [{ type: "apply_sla", sla_policy_id: theirSla.id }] }), "actions.0.sla_policy_id");
    const saved = await createRule(adminToken, base);
    expect(saved.status).toBe(201);
    await expect400(await patchRule(adminToken, saved.body.id, { actions: [{ type: "apply_sla", sla_policy_id: theirSla.id }] }), "actions.0.sla_policy_id");
    expect((await getDb().select().from(automations).where(eq(automations.accountId, account.id))).map((r) => r.actions)).toEqual([[{ type: "close" }]]);
    expect(await getDb().select().from(macros).where(eq(macros.accountId, account.id))).toEqual([]);
  });

  it("a macro sets the priority, the team and the SLA in one click, as the person who runs it", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent", "Alex");
    const sales = await createTeam(adminToken, "Sales");
    const policy = await createSla(adminToken, { name: "Day", first_response_s: 86_400 });
    const made = await call(macrosRoute.POST, {
      method: "POST",
      path: "/v1/macros",
      token: agent.token,
      body: { name: "Escalate to Sales", actions: [{ type: "set_priority", priority: "high" }, { type: "assign_team", team_id: sales.id }, { type: "apply_sla", sla_policy_id: policy.id }] },
    });
    expect(made.status, made.text).toBe(201);
    const { conversation_id } = await customerWrites(adminToken, { from: nextPhone(), text: "Hi" });
    const ran = await call(runMacroRoute.POST, { method: "POST", path: `/v1/conversations/${conversation_id}/macros/${made.body.id}`, token: agent.token, params: { id: conversation_id, macro_id: made.body.id } });
    expect(ran.status, ran.text).toBe(200);
    expect(ran.body.actions.map((a: { result: string }) => a.result)).toEqual(["done", "done", "done"]);
    expect((await getConversation(adminToken, conversation_id)).body).toMatchObject({ priority: "high", team_id: sales.id, sla: { policy_id: policy.id } });
    const trail = (await activityOf(adminToken, conversation_id)).body.data as { type: string; actor: { type: string; id?: string } }[];
    for (const type of ["priority_changed", "team_changed", "sla_applied"]) expect(trail.find((a) => a.type === type)).toMatchObject({ actor: { type: "user", id: agent.user.id } });
  });
});
