import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as sandboxInboundRoute from "@/app/api/sandbox/inbound/route";
import * as assignmentRoute from "@/app/v1/config/assignment/route";
import * as conversationRoute from "@/app/v1/conversations/[id]/route";
import * as conversationSlaRoute from "@/app/v1/conversations/[id]/sla/route";
import * as closeRoute from "@/app/v1/conversations/[id]/close/route";
import * as activityRoute from "@/app/v1/conversations/[id]/activity/route";
import * as conversationsRoute from "@/app/v1/conversations/route";
import * as messagesRoute from "@/app/v1/messages/route";
import * as notificationsRoute from "@/app/v1/notifications/route";
import * as slaPoliciesRoute from "@/app/v1/sla-policies/route";
import * as slaReportRoute from "@/app/v1/reports/sla/route";
import * as slaPolicyRoute from "@/app/v1/sla-policies/[id]/route";
import * as teamRoute from "@/app/v1/teams/[id]/route";
import * as teamsRoute from "@/app/v1/teams/route";
import * as meRoute from "@/app/v1/users/me/route";
import * as availabilityRoute from "@/app/v1/users/me/availability/route";
import * as userRoute from "@/app/v1/users/[id]/route";
import { getDb } from "@/db";
import { assignmentPolicies, conversations, slaOutcomes, teams, users } from "@/db/schema";
import { createApiToken } from "@/lib/auth/api-tokens";
import { type Scope, scopesForRole } from "@/lib/auth/scopes";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { call } from "@/tests/support/api";
import { setEnv } from "@/tests/support/env-vars";
import { addTestUser, bearerContext, createTestAccount } from "@/tests/support/fixtures";
import { eventsOf, nextPhone } from "@/tests/support/messaging";
import { drain, registerWebhook } from "@/tests/support/webhooks";
import { type WebhookReceiver, startReceiver } from "@/tests/support/webhook-receiver";

beforeEach(() => resetRateLimiters());

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

const MINUTE = 60_000;

async function customerWrites(token: string, body: Record<string, unknown>) {
  const res = await call(sandboxInboundRoute.POST, { method: "POST", path: "/api/sandbox/inbound", token, body: { type: "text", ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; conversation_id: string };
}
const setAvailability = (token: string, availability: unknown) =>
  call(availabilityRoute.PUT, { method: "PUT", path: "/v1/users/me/availability", token, body: { availability } });
const putAssignment = (token: string, body: unknown) => call(assignmentRoute.PUT, { method: "PUT", path: "/v1/config/assignment", token, body });
const getAssignment = (token: string, query = "") => call(assignmentRoute.GET, { path: `/v1/config/assignment${query}`, token });
const getConversation = (token: string, id: string) => call(conversationRoute.GET, { path: `/v1/conversations/${id}`, token, params: { id } });
const patchConversation = (token: string, id: string, body: unknown) => call(conversationRoute.PATCH, { method: "PATCH", path: `/v1/conversations/${id}`, token, params: { id }, body });
const close = (token: string, id: string) => call(closeRoute.POST, { method: "POST", path: `/v1/conversations/${id}/close`, token, params: { id } });
const list = (token: string, query: string) => call(conversationsRoute.GET, { path: `/v1/conversations?${query}`, token });
const createTeam = (token: string, body: unknown) => call(teamsRoute.POST, { method: "POST", path: "/v1/teams", token, body });
const createSla = (token: string, body: unknown) => call(slaPoliciesRoute.POST, { method: "POST", path: "/v1/sla-policies", token, body });
const reply = (token: string, conversationId: string, text = "On it") =>
  call(messagesRoute.POST, { method: "POST", path: "/v1/messages", token, body: { conversation_id: conversationId, type: "text", text } });

/** An account whose admin is offline (so automatic assignment goes only to the agents), with two online agents. */
async function teamAccount() {
  const setup = await createTestAccount();
  expect((await setAvailability(setup.adminToken, "offline")).status).toBe(200);
  const ana = await addTestUser(setup.account.id, "agent", "Ana");
  const bruno = await addTestUser(setup.account.id, "agent", "Bruno");
  return { ...setup, ana, bruno };
}

describe("availability", () => {
  it("is set by the person, shown on the user resource, and reads away after the account's delay without activity", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const busy = await setAvailability(agent.token, "busy");
    expect(busy.status, busy.text).toBe(200);
    expect(busy.body).toMatchObject({ id: agent.user.id, availability: "busy" });
    expect((await call(meRoute.GET, { path: "/v1/users/me", token: agent.token })).body.availability).toBe("busy");
    expect((await call(userRoute.GET, { path: `/v1/users/${agent.user.id}`, token: adminToken, params: { id: agent.user.id } })).body.availability).toBe("busy");

    const bad = await setAvailability(agent.token, "asleep");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("availability");
    expect((await call(availabilityRoute.PUT, { method: "PUT", path: "/v1/users/me/availability", token: agent.token, body: { availability: "online", extra: 1 } })).status).toBe(400);
    const [row] = await getDb().select().from(users).where(eq(users.id, agent.user.id));
    expect(row.availability).toBe("busy");

    expect((await setAvailability(agent.token, "online")).body.availability).toBe("online");
    // Eleven minutes without activity: away.
    await getDb().update(users).set({ lastActiveAt: new Date(Date.now() - 11 * MINUTE) }).where(eq(users.id, agent.user.id));
    expect((await call(userRoute.GET, { path: `/v1/users/${agent.user.id}`, token: adminToken, params: { id: agent.user.id } })).body.availability).toBe("away");
    // The account allows twenty minutes: online again.
    expect((await putAssignment(adminToken, { mode: "manual", away_after_s: 1200 })).status).toBe(200);
    expect((await call(userRoute.GET, { path: `/v1/users/${agent.user.id}`, token: adminToken, params: { id: agent.user.id } })).body.availability).toBe("online");
  });
});

describe("who may set availability", () => {
  it("only the person, signed in: an API token gets a 403 whatever its scopes, and nothing changes", async () => {
    const { account } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    expect((await setAvailability(agent.token, "busy")).status).toBe(200);
    const ctx = await bearerContext(agent.token);
    // users:read is a read scope; an integration holding every scope the agent has is still not the agent at their desk.
    for (const permissions of [["users:read"], scopesForRole("agent")] as Scope[][]) {
      const { token } = await createApiToken({ ctx, input: { name: "bot", permissions, expires_at: new Date(Date.now() + 3 * 86_400_000) } });
      const refused = await setAvailability(token, "online");
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body.error.details[0].path).toBe("token_type");
      // Reading yourself stays a users:read call.
      expect((await call(meRoute.GET, { path: "/v1/users/me", token })).status).toBe(200);
    }
    const [row] = await getDb().select().from(users).where(eq(users.id, agent.user.id));
    expect(row.availability).toBe("busy");
  });
});

describe("teams", () => {
  it("are created, listed, changed and deleted by admins; bad members are a 400 and write nothing", async () => {
    const { account, adminToken, admin } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const other = await createTestAccount();

    const created = await createTeam(adminToken, { name: "Sales", members: [agent.user.id] });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^team_/), name: "Sales", members: [agent.user.id] });

    const unknown = await createTeam(adminToken, { name: "Support", members: [agent.user.id, other.admin.id] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0].path).toBe("members.1");
    expect(await getDb().select().from(teams).where(eq(teams.accountId, account.id))).toHaveLength(1);

    expect((await createTeam(adminToken, { name: "sales" })).status).toBe(409);
    expect((await createTeam(adminToken, { name: "" })).status).toBe(400);
    expect((await createTeam(agent.token, { name: "Agents" })).status).toBe(403);

    const listed = await call(teamsRoute.GET, { path: "/v1/teams", token: agent.token });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((t: { name: string }) => t.name)).toEqual(["Sales"]);

    const id = created.body.id;
    const patched = await call(teamRoute.PATCH, { method: "PATCH", path: `/v1/teams/${id}`, token: adminToken, params: { id }, body: { name: "Sales EU", members: [admin.id, agent.user.id] } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.members).toEqual([admin.id, agent.user.id].sort());
    const badPatch = await call(teamRoute.PATCH, { method: "PATCH", path: `/v1/teams/${id}`, token: adminToken, params: { id }, body: { name: "Renamed", members: ["usr_00000000000000000000000000"] } });
    expect(badPatch.status).toBe(400);
    expect((await call(teamRoute.GET, { path: `/v1/teams/${id}`, token: agent.token, params: { id } })).body.name).toBe("Sales EU");
    expect((await call(teamRoute.PATCH, { method: "PATCH", path: `/v1/teams/${id}`, token: agent.token, params: { id }, body: { name: "Mine" } })).status).toBe(403);

    const conversation = await customerWrites(adminToken, { from: nextPhone(), text: "Hi" });
    expect((await patchConversation(adminToken, conversation.conversation_id, { team_id: id })).body.team_id).toBe(id);
    expect((await call(teamRoute.DELETE, { method: "DELETE", path: `/v1/teams/${id}`, token: adminToken, params: { id } })).status).toBe(204);
    expect((await getConversation(adminToken, conversation.conversation_id)).body.team_id).toBeNull();
    expect((await call(teamRoute.DELETE, { method: "DELETE", path: `/v1/teams/${id}`, token: adminToken, params: { id } })).status).toBe(404);
  });
});

describe("priority and team on a conversation", () => {
  it("are set by PATCH, filtered by ?team= and ?priority=, ordered by ?sort=priority; a bad value changes nothing", async () => {
    const { adminToken, account } = await createTestAccount();
    const sales = (await createTeam(adminToken, { name: "Sales" })).body;
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await customerWrites(adminToken, { from: nextPhone(), text: `Hello ${i}` })).conversation_id);

    const both = await patchConversation(adminToken, ids[0], { priority: "low", team_id: sales.id });
    expect(both.status, both.text).toBe(200);
    expect(both.body).toMatchObject({ priority: "low", team_id: sales.id });
    expect((await patchConversation(adminToken, ids[1], { priority: "urgent" })).body.priority).toBe("urgent");
    expect((await patchConversation(adminToken, ids[2], { priority: "high" })).body.priority).toBe("high");

    // An unknown team: 400 on team_id, and the priority sent with it is not written either.
    const unknownTeam = await patchConversation(adminToken, ids[3], { priority: "urgent", team_id: "team_00000000000000000000000000" });
    expect(unknownTeam.status).toBe(400);
    expect(unknownTeam.body.error.details[0].path).toBe("team_id");
    expect((await getConversation(adminToken, ids[3])).body.priority).toBeNull();
    expect((await patchConversation(adminToken, ids[3], { priority: "critical" })).status).toBe(400);
    expect((await patchConversation(adminToken, ids[3], {})).status).toBe(400);

    expect((await list(adminToken, `team=${sales.id}`)).body.data.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    expect((await list(adminToken, "team=none")).body.data).toHaveLength(3);
    expect((await list(adminToken, "priority=urgent")).body.data.map((c: { id: string }) => c.id)).toEqual([ids[1]]);
    expect((await list(adminToken, "priority=none")).body.data.map((c: { id: string }) => c.id)).toEqual([ids[3]]);
    expect((await list(adminToken, "team=sales")).status).toBe(400);
    expect((await list(adminToken, "sort=loudest")).status).toBe(400);

    const first = await list(adminToken, "sort=priority&limit=2");
    expect(first.body.data.map((c: { id: string }) => c.id)).toEqual([ids[1], ids[2]]);
    const second = await list(adminToken, `sort=priority&limit=2&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`);
    expect(second.status, second.text).toBe(200);
    expect(second.body.data.map((c: { id: string }) => c.id)).toEqual([ids[0], ids[3]]);
    // A cursor of the priority order does not page the default order.
    expect((await list(adminToken, `limit=2&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`)).status).toBe(400);

    const activity = await call(activityRoute.GET, { path: `/v1/conversations/${ids[0]}/activity`, token: adminToken, params: { id: ids[0] } });
    expect(activity.body.data.map((a: { type: string }) => a.type)).toEqual(expect.arrayContaining(["team_changed", "priority_changed"]));
    void account;
  });
});

describe("assignment policy", () => {
  it("is read by everyone, written by admins only; unknown teams and people are a 400 that changes nothing", async () => {
    const { account, adminToken, ana } = await teamAccount();
    expect((await getAssignment(ana.token)).body).toEqual({ team_id: null, inherited: false, mode: "manual", capacity: null, agent_capacities: {}, away_after_s: 600 });
    expect((await putAssignment(ana.token, { mode: "round_robin" })).status).toBe(403);
    const unknownPerson = await putAssignment(adminToken, { mode: "balanced", capacity: 3, agent_capacities: { usr_00000000000000000000000000: 2 } });
    expect(unknownPerson.status).toBe(400);
    expect(unknownPerson.body.error.details[0].path).toBe("agent_capacities.usr_00000000000000000000000000");
    const unknownTeam = await putAssignment(adminToken, { team_id: "team_00000000000000000000000000", mode: "balanced" });
    expect(unknownTeam.status).toBe(400);
    expect((await putAssignment(adminToken, { mode: "fastest" })).status).toBe(400);
    expect((await putAssignment(adminToken, { mode: "inherit" })).status).toBe(400);
    expect((await putAssignment(adminToken, { mode: "balanced", capacity: 0 })).status).toBe(400);
    expect(await getDb().select().from(assignmentPolicies).where(eq(assignmentPolicies.accountId, account.id))).toHaveLength(0);

    const saved = await putAssignment(adminToken, { mode: "balanced", capacity: 3, agent_capacities: { [ana.user.id]: 1 } });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ mode: "balanced", capacity: 3, agent_capacities: { [ana.user.id]: 1 } });
    const sales = (await createTeam(adminToken, { name: "Sales", members: [ana.user.id] })).body;
    expect((await getAssignment(adminToken, `?team_id=${sales.id}`)).body).toMatchObject({ team_id: sales.id, inherited: true, mode: "balanced" });
    expect((await putAssignment(adminToken, { team_id: sales.id, mode: "round_robin" })).body).toMatchObject({ team_id: sales.id, inherited: false, mode: "round_robin" });
    expect((await putAssignment(adminToken, { team_id: sales.id, mode: "inherit" })).body).toMatchObject({ inherited: true, mode: "balanced" });
  });

  it("round robin hands new conversations to the two online agents in turn, as automation in the activity trail", async () => {
    const { adminToken, ana, bruno } = await teamAccount();
    await setAvailability(ana.token, "online");
    await setAvailability(bruno.token, "online");
    expect((await putAssignment(adminToken, { mode: "round_robin" })).status).toBe(200);
    const assignees: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { conversation_id } = await customerWrites(adminToken, { from: nextPhone(), text: "Price?" });
      const conversation = (await getConversation(adminToken, conversation_id)).body;
      expect(conversation.status).toBe("assigned");
      assignees.push(conversation.assigned_to);
    }
    const [first, second] = [ana.user.id, bruno.user.id].sort();
    expect(assignees).toEqual([first, second, first, second]);

    const last = (await list(adminToken, "limit=1")).body.data[0];
    const trail = await call(activityRoute.GET, { path: `/v1/conversations/${last.id}/activity`, token: adminToken, params: { id: last.id } });
    const assigned = trail.body.data.find((a: { type: string }) => a.type === "assigned");
    expect(assigned).toMatchObject({ actor: { type: "automation" }, data: { assignee: { id: second }, policy: "round_robin" } });

    // Busy people get nothing new.
    await setAvailability(ana.token, "busy");
    await setAvailability(bruno.token, "busy");
    const waiting = await customerWrites(adminToken, { from: nextPhone(), text: "Anyone?" });
    expect((await getConversation(adminToken, waiting.conversation_id)).body).toMatchObject({ status: "open", assigned_to: null });
    // Going online hands it out at once.
    await setAvailability(bruno.token, "online");
    expect((await getConversation(adminToken, waiting.conversation_id)).body).toMatchObject({ status: "assigned", assigned_to: bruno.user.id });
  });

  it("a full capacity queues conversations, which are handed out oldest first as places free up", async () => {
    const { account, adminToken, ana } = await teamAccount();
    await setAvailability(ana.token, "online");
    expect((await putAssignment(adminToken, { mode: "balanced", capacity: 1 })).status).toBe(200);
    const first = (await customerWrites(adminToken, { from: nextPhone(), text: "1" })).conversation_id;
    const second = (await customerWrites(adminToken, { from: nextPhone(), text: "2" })).conversation_id;
    const third = (await customerWrites(adminToken, { from: nextPhone(), text: "3" })).conversation_id;
    expect((await getConversation(adminToken, first)).body.assigned_to).toBe(ana.user.id);
    expect((await getConversation(adminToken, second)).body.assigned_to).toBeNull();
    expect((await getConversation(adminToken, third)).body.assigned_to).toBeNull();

    // Closing the first frees Ana's place: the oldest waiting one (second) is hers.
    expect((await close(ana.token, first)).status).toBe(200);
    expect((await getConversation(adminToken, second)).body.assigned_to).toBe(ana.user.id);
    expect((await getConversation(adminToken, third)).body.assigned_to).toBeNull();

    // Raising the capacity hands out the rest.
    expect((await putAssignment(adminToken, { mode: "balanced", capacity: 2 })).status).toBe(200);
    expect((await getConversation(adminToken, third)).body.assigned_to).toBe(ana.user.id);
    const open = await getDb()
      .select()
      .from(conversations)
      .where(and(eq(conversations.accountId, account.id), eq(conversations.assignedTo, ana.user.id), eq(conversations.status, "assigned")));
    expect(open).toHaveLength(2);
  });

  it("two conversations arriving at once never both take a person's last place", async () => {
    const { account, adminToken, ana } = await teamAccount();
    await setAvailability(ana.token, "online");
    await putAssignment(adminToken, { mode: "round_robin", capacity: 1 });
    const arrivals = await Promise.all([0, 1, 2].map(() => customerWrites(adminToken, { from: nextPhone(), text: "at once" })));
    expect(arrivals).toHaveLength(3);
    const hers = await getDb()
      .select()
      .from(conversations)
      .where(and(eq(conversations.accountId, account.id), eq(conversations.assignedTo, ana.user.id)));
    expect(hers).toHaveLength(1);
  });

  it("a team's conversations go only to its members", async () => {
    const { adminToken, ana, bruno } = await teamAccount();
    await setAvailability(ana.token, "online");
    await setAvailability(bruno.token, "online");
    const sales = (await createTeam(adminToken, { name: "Sales", members: [bruno.user.id] })).body;
    await putAssignment(adminToken, { team_id: sales.id, mode: "round_robin" });
    const { conversation_id } = await customerWrites(adminToken, { from: nextPhone(), text: "Quote please" });
    expect((await getConversation(adminToken, conversation_id)).body.assigned_to).toBeNull();
    const moved = await patchConversation(adminToken, conversation_id, { team_id: sales.id });
    expect(moved.body).toMatchObject({ team_id: sales.id, assigned_to: bruno.user.id, status: "assigned" });
  });
});

describe("SLA policies", () => {
  it("are managed by admins; bad input and unknown policies are a 400", async () => {
    const { adminToken, account } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    expect((await createSla(agent.token, { name: "Fast", first_response_s: 900 })).status).toBe(403);
    expect((await createSla(adminToken, { name: "Nothing" })).status).toBe(400);
    expect((await createSla(adminToken, { name: "Too fast", first_response_s: 5 })).status).toBe(400);
    const created = await createSla(adminToken, { name: "Fast", first_response_s: 900, resolution_s: 86_400, business_hours_only: true, default: true });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^sla_/), name: "Fast", first_response_s: 900, next_response_s: null, resolution_s: 86_400, business_hours_only: true, default: true });
    expect((await createSla(adminToken, { name: "fast", resolution_s: 600 })).status).toBe(409);
    const id = created.body.id;
    const cleared = await call(slaPolicyRoute.PATCH, { method: "PATCH", path: `/v1/sla-policies/${id}`, token: adminToken, params: { id }, body: { first_response_s: null, resolution_s: null } });
    expect(cleared.status).toBe(400);
    const patched = await call(slaPolicyRoute.PATCH, { method: "PATCH", path: `/v1/sla-policies/${id}`, token: adminToken, params: { id }, body: { next_response_s: 1800, default: false } });
    expect(patched.body).toMatchObject({ next_response_s: 1800, first_response_s: 900, default: false });
    expect((await call(slaPoliciesRoute.GET, { path: "/v1/sla-policies", token: agent.token })).body.data).toHaveLength(1);

    const { conversation_id } = await customerWrites(adminToken, { from: nextPhone(), text: "Hi" });
    const unknown = await call(conversationSlaRoute.PUT, { method: "PUT", path: `/v1/conversations/${conversation_id}/sla`, token: adminToken, params: { id: conversation_id }, body: { sla_policy_id: "sla_00000000000000000000000000" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0].path).toBe("sla_policy_id");
    const applied = await call(conversationSlaRoute.PUT, { method: "PUT", path: `/v1/conversations/${conversation_id}/sla`, token: agent.token, params: { id: conversation_id }, body: { sla_policy_id: id } });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.sla).toMatchObject({ policy_id: id, kind: "first_response", status: "ok" });

    expect((await call(slaPolicyRoute.DELETE, { method: "DELETE", path: `/v1/sla-policies/${id}`, token: adminToken, params: { id } })).status).toBe(204);
    expect((await getConversation(adminToken, conversation_id)).body.sla).toBeNull();
  });

  it("a first response in time is met; one without an answer warns at 80 % and breaches, with their webhooks and alerts", async () => {
    const { account, adminToken, admin } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const webhook = await registerWebhook(adminToken, { url: receiver.url, events: ["sla.warning", "sla.breached"] });
    const policy = (await createSla(adminToken, { name: "Urgent: 15 minutes", first_response_s: 900, default: true })).body;

    const met = (await customerWrites(adminToken, { from: nextPhone(), text: "How much is the monstera?" })).conversation_id;
    const before = (await getConversation(adminToken, met)).body;
    expect(before.sla).toMatchObject({ policy_id: policy.id, kind: "first_response", status: "ok" });
    expect(new Date(before.sla.due_at).getTime() - new Date(before.created_at).getTime()).toBeGreaterThanOrEqual(900_000 - 1000);
    expect((await reply(agent.token, met)).status).toBe(201);
    expect((await getConversation(adminToken, met)).body.sla).toEqual({ policy_id: policy.id, kind: null, due_at: null, status: "ok" });

    const missed = (await customerWrites(adminToken, { from: nextPhone(), text: "Hello??" })).conversation_id;
    await drain(13 * MINUTE);
    expect((await getConversation(adminToken, missed)).body.sla.status).toBe("warning");
    await drain(16 * MINUTE);
    expect((await getConversation(adminToken, missed)).body.sla).toMatchObject({ kind: "first_response", status: "breached" });
    await drain(20 * MINUTE);
    expect(await eventsOf(account.id, "sla.warning")).toHaveLength(1);
    expect(await eventsOf(account.id, "sla.breached")).toHaveLength(1);
    expect((await eventsOf(account.id, "sla.breached"))[0].data).toMatchObject({ conversation: { id: missed }, sla: { status: "breached" } });

    const deliveries = await receiver.waitForDeliveries(2);
    const types = deliveries.filter((d) => d.json?.data?.conversation?.id === missed).map((d) => d.json.type);
    expect(types.sort()).toEqual(["sla.breached", "sla.warning"]);
    void webhook;

    // Unassigned: the admins hear about it in the app.
    const inbox = await call(notificationsRoute.GET, { path: "/v1/notifications", token: adminToken });
    expect(inbox.body.data.map((n: { type: string }) => n.type).sort()).toEqual(["sla_breached", "sla_warning"]);
    void admin;

    const outcomes = await getDb().select().from(slaOutcomes).where(eq(slaOutcomes.accountId, account.id));
    expect(outcomes.map((o) => [o.conversationId, o.outcome, o.userId]).sort()).toEqual(
      [
        [met, "met", agent.user.id],
        [missed, "breached", null],
      ].sort(),
    );
  });

  it("a breached resolution stays breached, once, while the customer keeps writing", async () => {
    const { account, adminToken } = await createTestAccount();
    await createSla(adminToken, { name: "Same day", resolution_s: 600, default: true });
    const from = nextPhone();
    const id = (await customerWrites(adminToken, { from, text: "Order 1234?" })).conversation_id;
    expect((await getConversation(adminToken, id)).body.sla).toMatchObject({ kind: "resolution", status: "ok" });
    await drain(11 * MINUTE);
    expect((await getConversation(adminToken, id)).body.sla.status).toBe("breached");
    await customerWrites(adminToken, { from, text: "Hello??" });
    expect((await getConversation(adminToken, id)).body.sla).toMatchObject({ kind: "resolution", status: "breached" });
    await drain(12 * MINUTE);
    expect(await eventsOf(account.id, "sla.breached")).toHaveLength(1);
    expect(await getDb().select().from(slaOutcomes).where(eq(slaOutcomes.accountId, account.id))).toHaveLength(1);
  });

  it("the report counts attainment per policy and per person from what was recorded", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent", "Ana");
    const policy = (await createSla(adminToken, { name: "Quick", first_response_s: 600, default: true })).body;
    const met = (await customerWrites(adminToken, { from: nextPhone(), text: "Hi" })).conversation_id;
    expect((await reply(agent.token, met)).status).toBe(201);
    await customerWrites(adminToken, { from: nextPhone(), text: "Hello?" });
    await drain(11 * MINUTE);
    const to = new Date(Date.now() + 20 * MINUTE).toISOString();
    const report = await call(slaReportRoute.GET, { path: `/v1/reports/sla?to=${encodeURIComponent(to)}`, token: adminToken });
    expect(report.status, report.text).toBe(200);
    expect(report.body.policies).toEqual([{ policy_id: policy.id, name: "Quick", met: 1, breached: 1, attainment: 0.5 }]);
    expect(report.body.agents).toEqual(
      expect.arrayContaining([
        { user_id: agent.user.id, name: "Ana", met: 1, breached: 0, attainment: 1 },
        { user_id: null, name: null, met: 0, breached: 1, attainment: 0 },
      ]),
    );
    // Deleting the policy later changes nothing that was counted.
    await call(slaPolicyRoute.DELETE, { method: "DELETE", path: `/v1/sla-policies/${policy.id}`, token: adminToken, params: { id: policy.id } });
    const after = await call(slaReportRoute.GET, { path: `/v1/reports/sla?to=${encodeURIComponent(to)}`, token: adminToken });
    expect(after.body.policies).toEqual([{ policy_id: policy.id, name: null, met: 1, breached: 1, attainment: 0.5 }]);
  });

  it("a business-hours clock pauses while the business is closed", async () => {
    const { addClockSeconds } = await import("@/lib/sla/clock");
    const hours = { timezone: "UTC", weekly: { mon: [{ open: "09:00", close: "17:00" }], tue: [{ open: "09:00", close: "17:00" }] } };
    // Monday 16:50 + 15 minutes of business time = Tuesday 09:05.
    const due = addClockSeconds({ from: new Date("2026-11-23T16:50:00.000Z"), seconds: 900, hours });
    expect(due.toISOString()).toBe("2026-11-24T09:05:00.000Z");
    // Sunday night: the clock starts at Monday's opening.
    expect(addClockSeconds({ from: new Date("2026-11-22T22:00:00.000Z"), seconds: 600, hours }).toISOString()).toBe("2026-11-23T09:10:00.000Z");
    expect(addClockSeconds({ from: new Date("2026-11-22T22:00:00.000Z"), seconds: 600, hours: null }).toISOString()).toBe("2026-11-22T22:10:00.000Z");
  });
});
