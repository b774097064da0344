import { eq, sql } from "drizzle-orm";
import { systemContext } from "@/lib/server/context";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as webhookRoute from "@/app/api/network/webhook/route";
import * as campaignRoute from "@/app/v1/campaigns/[id]/route";
import * as cancelRoute from "@/app/v1/campaigns/[id]/cancel/route";
import * as pauseRoute from "@/app/v1/campaigns/[id]/pause/route";
import * as recipientsRoute from "@/app/v1/campaigns/[id]/recipients/route";
import * as resumeRoute from "@/app/v1/campaigns/[id]/resume/route";
import * as scheduleRoute from "@/app/v1/campaigns/[id]/schedule/route";
import * as previewRoute from "@/app/v1/campaigns/audience-preview/route";
import * as campaignsRoute from "@/app/v1/campaigns/route";
import * as settingsRoute from "@/app/v1/config/campaigns/route";
import * as numberRoute from "@/app/v1/config/number/route";
import * as contactLabelsRoute from "@/app/v1/contacts/[id]/labels/route";
import * as contactRoute from "@/app/v1/contacts/[id]/route";
import * as importRoute from "@/app/v1/contacts/import/route";
import * as labelsRoute from "@/app/v1/labels/route";
import * as templatesRoute from "@/app/v1/templates/route";
import { getDb, rowsOf } from "@/db";
import { campaignRecipients, campaigns as campaignsTable, contacts, conversations, events, jobs, messages, webhookDeliveries, webhooks } from "@/db/schema";
import { OPT_OUT_CONFIRMATIONS } from "@/lib/campaigns/opt-out";
import { prepareShare } from "@/lib/campaigns/prepare";
import { setCampaignWarmUpMs, setDispatchRunMs } from "@/lib/campaigns/send";
import { claimRecipients } from "@/lib/campaigns/store/sending";
import { handOverQueuedMessage } from "@/lib/messages/send-queued-message";
import { drainJobs } from "@/lib/jobs/runner";
import { releaseAllStaleClaims } from "@/lib/jobs/sources";
import { newId } from "@/lib/platform/ids";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { jobRegistry } from "@/lib/server/job-registry";
import { call } from "@/tests/support/api";
import { setEnv } from "@/tests/support/env-vars";
import { buildInboundPayload, buildTemplateStatusPayload, type FakeCloudNetwork, type InboundMessageInput, type InboundStatusInput, signHubPayload, startFakeCloudNetwork } from "@/tests/support/fake-cloud-network";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";

const ACCESS_TOKEN = "EAAG-fake-network-token-campaigns";
const APP_SECRET = "fake-app-secret-campaigns-012345";
let seq = 0;
let network: FakeCloudNetwork;
let account: Awaited<ReturnType<typeof createTestAccount>>;
let restoreEnv: () => void;

beforeAll(() => {
  restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true" });
  // One second's share of recipients per run of the dispatch job, so a test can act between them.
  setDispatchRunMs(0);
  // The test process has just started: its campaigns send at once.
  setCampaignWarmUpMs(0);
});
afterAll(() => {
  restoreEnv();
  setDispatchRunMs(15_000);
});
beforeEach(async () => {
  resetRateLimiters();
  seq += 1;
  network = await startFakeCloudNetwork({
    accessToken: ACCESS_TOKEN,
    phoneNumberId: `30654077335${String(seq).padStart(4, "0")}`,
    businessAccountId: `4022901888${String(seq).padStart(5, "0")}`,
  });
  account = await createTestAccount();
  const res = await call(numberRoute.PUT, {
    method: "PUT",
    path: "/v1/config/number",
    token: account.adminToken,
    body: {
      provider: "cloud",
      phone_number: "+14155552671",
      phone_number_id: network.phoneNumberId,
      business_account_id: network.businessAccountId,
      access_token: ACCESS_TOKEN,
      app_secret: APP_SECRET,
      verify_token: `verify-campaigns-${seq}`,
      api_base_url: network.apiBaseUrl,
    },
  });
  expect(res.status, res.text).toBe(200);
});
afterEach(async () => {
  await network.close();
});

const admin = () => account.adminToken;
const post = (route: { POST: never } | typeof campaignsRoute, path: string, body?: unknown, token = admin(), params?: Record<string, string>) =>
  call((route as { POST: Parameters<typeof call>[0] }).POST, { method: "POST", path, token, body, params });

function webhook(payload: Record<string, unknown>) {
  const rawBody = JSON.stringify(payload);
  return call(webhookRoute.POST, {
    method: "POST",
    path: "/api/network/webhook",
    rawBody,
    headers: { "content-type": "application/json", "x-hub-signature-256": signHubPayload({ appSecret: APP_SECRET, rawBody }) },
  });
}
const inbound = (list: InboundMessageInput[]) => webhook(buildInboundPayload({ phoneNumberId: network.phoneNumberId, businessAccountId: network.businessAccountId, messages: list }));
const statuses = (list: InboundStatusInput[]) => webhook(buildInboundPayload({ phoneNumberId: network.phoneNumberId, businessAccountId: network.businessAccountId, statuses: list }));

async function createTemplate(name: string, { approve = true, text = "Hi {{1}}, the spring catalogue is here: {{2}}" } = {}) {
  const created = await call(templatesRoute.POST, {
    method: "POST",
    path: "/v1/templates",
    token: admin(),
    body: { name, language: "en_US", category: "MARKETING", components: { body: { text, examples: text.includes("{{") ? ["Ana", "x"] : undefined } } },
  });
  expect(created.status, created.text).toBe(201);
  if (!approve) return;
  const template = network.templates.get(`${name}:en_US`)!;
  template.status = "APPROVED";
  expect((await webhook(buildTemplateStatusPayload({ businessAccountId: network.businessAccountId, template, event: "APPROVED" }))).status).toBe(200);
}

async function addContact(phone: string, fields: Partial<typeof contacts.$inferInsert> = {}) {
  const now = new Date();
  const [row] = await getDb()
    .insert(contacts)
    .values({ id: newId("contact", now), accountId: account.account.id, phone, createdAt: now, updatedAt: now, ...fields })
    .returning();
  return row;
}

async function createLabel(name: string) {
  const res = await call(labelsRoute.POST, { method: "POST", path: "/v1/labels", token: admin(), body: { name, color: "#16a34a" } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

const setLabels = (contactId: string, labelIds: string[]) =>
  call(contactLabelsRoute.PUT, { method: "PUT", path: `/v1/contacts/${contactId}/labels`, token: admin(), params: { id: contactId }, body: { label_ids: labelIds } });

const getCampaign = (id: string) => call(campaignRoute.GET, { path: `/v1/campaigns/${id}`, token: admin(), params: { id } });
const recipients = async (id: string, query = "") => {
  const res = await call(recipientsRoute.GET, { path: `/v1/campaigns/${id}/recipients${query}`, token: admin(), params: { id } });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { contact_id: string; status: string; reason: string | null; message_id: string | null }[];
};

/** Runs the job runner until the campaign has no more work (each run of the dispatch is one second's share). */
async function runUntilSettled(campaignId: string, maxRounds = 30) {
  for (let round = 0; round < maxRounds; round++) {
    await drainJobs(systemContext(), jobRegistry, { now: new Date(Date.now() + 60_000) });
    const status = (await getCampaign(campaignId)).body.status;
    if (status !== "sending" && status !== "scheduled") return status;
  }
  throw new Error("campaign did not settle");
}

const acceptedTo = (phone: string) => network.acceptedMessages.filter((m) => m.to === phone);
const campaignBody = (audience: Record<string, unknown>, name = "spring_catalogue") => ({
  name: "Spring catalogue",
  template: { name, language: "en_US", variables: [{ source: "contact.name" }, { source: "literal", value: "https://shop.example/spring" }] },
  audience,
});

describe("campaign settings", () => {
  it("has documented defaults, changes what is given, refuses bad values, and is an admin's", async () => {
    const initial = await call(settingsRoute.GET, { path: "/v1/config/campaigns", token: admin() });
    expect(initial.body).toEqual({ messages_per_second: 80, require_opt_in: true, opt_out_keywords: ["STOP", "BAJA", "PARAR", "SAIR"] });
    const put = (body: unknown, token = admin()) => call(settingsRoute.PUT, { method: "PUT", path: "/v1/config/campaigns", token, body });
    expect((await put({ messages_per_second: 20, opt_out_keywords: ["STOP", "Cancelar"] })).body).toEqual({ messages_per_second: 20, require_opt_in: true, opt_out_keywords: ["STOP", "Cancelar"] });
    for (const body of [{ messages_per_second: 0 }, { messages_per_second: 1001 }, { messages_per_second: 2.5 }, { require_opt_in: "yes" }, { opt_out_keywords: ["STOP", "stop"] }, { opt_out_keywords: ["!!"] }, { unknown: 1 }]) {
      const res = await put(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("validation_error");
    }
    const agent = await addTestUser(account.account.id, "agent");
    expect((await put({ messages_per_second: 5 }, agent.token)).status).toBe(403);
    expect((await call(settingsRoute.GET, { path: "/v1/config/campaigns", token: admin() })).body.messages_per_second).toBe(20);
  });
});

describe("creating a campaign", () => {
  it("refuses an unapproved template (409), unknown labels, contacts and variable sources (400), and agents (403)", async () => {
    await createTemplate("spring_catalogue");
    await createTemplate("pending_one", { approve: false });
    const label = await createLabel("Spring");
    const contact = await addContact("34611000001", { name: "Ana", attributes: { city: "Madrid" } });

    const notApproved = await post(campaignsRoute, "/v1/campaigns", campaignBody({ label_ids: [label] }, "pending_one"));
    expect(notApproved.status).toBe(409);
    expect(notApproved.body.error.code).toBe("template_not_approved");

    const unknownLabel = await post(campaignsRoute, "/v1/campaigns", campaignBody({ label_ids: [label, "lbl_01jd2x8k3f0m6q1v9w4r7t5y2z"] }));
    expect(unknownLabel.status).toBe(400);
    expect(unknownLabel.body.error.details[0].path).toBe("audience.label_ids.1");

    const unknownContact = await post(campaignsRoute, "/v1/campaigns", campaignBody({ contact_ids: ["ctc_01jd2x8k3f0m6q1v9w4r7t5y2z"] }));
    expect(unknownContact.status).toBe(400);
    expect(unknownContact.body.error.details[0].path).toBe("audience.contact_ids.0");

    const badSource = { ...campaignBody({ contact_ids: [contact.id] }), template: { name: "spring_catalogue", language: "en_US", variables: [{ source: "contact.attributes.plan" }, { source: "contact.name" }] } };
    const noSuchAttribute = await post(campaignsRoute, "/v1/campaigns", badSource);
    expect(noSuchAttribute.status).toBe(400);
    expect(noSuchAttribute.body.error.details[0].path).toBe("template.variables.0.source");
    const unknownForm = await post(campaignsRoute, "/v1/campaigns", { ...badSource, template: { ...badSource.template, variables: [{ source: "contact.birthday" }, { source: "contact.name" }] } });
    expect(unknownForm.status).toBe(400);
    const wrongCount = await post(campaignsRoute, "/v1/campaigns", { ...badSource, template: { ...badSource.template, variables: [{ source: "contact.name" }] } });
    expect(wrongCount.status).toBe(400);
    expect((await post(campaignsRoute, "/v1/campaigns", { ...campaignBody({}) })).status).toBe(400);

    const agent = await addTestUser(account.account.id, "agent");
    expect((await post(campaignsRoute, "/v1/campaigns", campaignBody({ contact_ids: [contact.id] }), agent.token)).status).toBe(403);

    const created = await post(campaignsRoute, "/v1/campaigns", { ...badSource, template: { ...badSource.template, variables: [{ source: "contact.name" }, { source: "contact.attributes.city" }] } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ status: "draft", counts: { recipients: 1, skipped: 1, queued: 0 }, send_at: null });
    expect(created.body.id).toMatch(/^cmp_/);
    // Nothing was written for any refused request.
    expect((await call(campaignsRoute.GET, { path: "/v1/campaigns", token: admin() })).body.data).toHaveLength(1);
  });
});

describe("sending a campaign", () => {
  it("messages the consenting once each, skips the opted out, blocked and never asked with the reason, and counts statuses and replies", async () => {
    await createTemplate("spring_catalogue");
    const spring = await createLabel("Spring");
    const yes = await addContact("34611000011", { name: "Ana", marketingOptIn: true });
    const out = await addContact("34611000012", { name: "Bea", marketingOptIn: false });
    const blocked = await addContact("34611000013", { name: "Carla", marketingOptIn: true, blocked: true });
    const never = await addContact("34611000014", { name: "Dora" });
    const viaConversation = await addContact("34611000015", { name: "Eva", marketingOptIn: true });
    const noName = await addContact("34611000016", { marketingOptIn: true });
    const outside = await addContact("34611000017", { name: "Flor", marketingOptIn: true });
    for (const c of [yes, out, blocked, never, noName]) expect((await setLabels(c.id, [spring])).status).toBe(200);
    // A label on one of the contact's conversations counts too.
    const now = new Date();
    await getDb().insert(conversations).values({ id: newId("conversation", now), accountId: account.account.id, contactId: viaConversation.id, status: "closed", closedAt: now, createdAt: now, updatedAt: now, labels: [{ id: spring, name: "Spring", color: "#16a34a" }] });

    const preview = await post(previewRoute, "/v1/campaigns/audience-preview", { audience: { label_ids: [spring] }, template: { name: "spring_catalogue", language: "en_US" } });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body).toMatchObject({ count: 6, eligible: 3, skipped: { no_consent: 1, opted_out: 1, blocked: 1 }, estimated_cost: { amount: 0.1716, currency: "EUR", priced: 3, unpriced: 0 } });
    expect(preview.body.sample).toHaveLength(6);

    const created = await post(campaignsRoute, "/v1/campaigns", campaignBody({ label_ids: [spring] }));
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const started = await post(scheduleRoute, `/v1/campaigns/${id}/schedule`, {}, admin(), { id });
    expect(started.status, started.text).toBe(200);
    expect(await runUntilSettled(id)).toBe("done");

    expect(acceptedTo(yes.phone!)).toHaveLength(1);
    expect(acceptedTo(viaConversation.phone!)).toHaveLength(1);
    for (const c of [out, blocked, never, noName, outside]) expect(acceptedTo(c.phone!)).toHaveLength(0);
    const sent = acceptedTo(yes.phone!)[0].body as { template: { name: string; components: { parameters: { text: string }[] }[] } };
    expect(sent.template.name).toBe("spring_catalogue");
    expect(sent.template.components[0].parameters.map((p) => p.text)).toEqual(["Ana", "https://shop.example/spring"]);

    const byContact = new Map((await recipients(id)).map((r) => [r.contact_id, r]));
    expect(byContact.get(out.id)).toMatchObject({ status: "skipped", reason: "opted_out" });
    expect(byContact.get(blocked.id)).toMatchObject({ status: "skipped", reason: "blocked" });
    expect(byContact.get(never.id)).toMatchObject({ status: "skipped", reason: "no_consent" });
    expect(byContact.get(noName.id)).toMatchObject({ status: "skipped", reason: "missing_variable" });
    expect(byContact.get(yes.id)).toMatchObject({ status: "sent" });
    expect((await getCampaign(id)).body).toMatchObject({ status: "done", counts: { recipients: 6, queued: 0, sent: 2, delivered: 0, read: 0, replied: 0, failed: 0, skipped: 4 }, estimated_cost: { amount: 0.1716, currency: "EUR" } });

    // The network's statuses move the recipients; a reply opens a normal conversation and counts.
    const networkId = (phone: string) => acceptedTo(phone)[0].id;
    expect((await statuses([{ id: networkId(yes.phone!), status: "read", recipientId: yes.phone! }, { id: networkId(viaConversation.phone!), status: "delivered", recipientId: viaConversation.phone! }])).status).toBe(200);
    expect((await inbound([{ from: viaConversation.phone!, name: "Eva", type: "text", text: "Do you have the catalogue in red?" }])).status).toBe(200);
    expect((await getCampaign(id)).body.counts).toMatchObject({ sent: 2, delivered: 2, read: 1, replied: 1 });
    expect((await recipients(id, "?status=replied")).map((r) => r.contact_id)).toEqual([viaConversation.id]);
    const conversation = await getDb().select().from(conversations).where(eq(conversations.contactId, viaConversation.id));
    expect(conversation.map((c) => c.status)).toContain("open");
    // Only the conversation that got an answer is in the inbox.
    const [ana] = await getDb().select().from(conversations).where(eq(conversations.contactId, yes.id));
    expect(ana.status).toBe("closed");
    expect((await call(recipientsRoute.GET, { path: `/v1/campaigns/${id}/recipients?status=lost`, token: admin(), params: { id } })).status).toBe(400);
  });

  it("pauses and resumes without messaging anyone twice, and cancel skips who is left", async () => {
    await createTemplate("spring_catalogue");
    await call(settingsRoute.PUT, { method: "PUT", path: "/v1/config/campaigns", token: admin(), body: { messages_per_second: 2 } });
    const list = [];
    for (let i = 0; i < 7; i++) list.push(await addContact(`3461100010${i}`, { name: `C${i}`, marketingOptIn: true }));
    const created = await post(campaignsRoute, "/v1/campaigns", campaignBody({ contact_ids: list.map((c) => c.id) }));
    const id = created.body.id as string;
    expect((await post(pauseRoute, `/v1/campaigns/${id}/pause`, undefined, admin(), { id })).status).toBe(409);
    await post(scheduleRoute, `/v1/campaigns/${id}/schedule`, {}, admin(), { id });
    // One run: one second's share (2) of the recipients (a slow run is followed at once by the next: one round only).
    const oneRun = () => drainJobs(systemContext(), jobRegistry, { maxRounds: 1 });
    await oneRun();
    expect(network.acceptedMessages).toHaveLength(2);
    const paused = await post(pauseRoute, `/v1/campaigns/${id}/pause`, undefined, admin(), { id });
    expect(paused.body).toMatchObject({ status: "paused", counts: { sent: 2, queued: 5 } });
    await drainJobs(systemContext(), jobRegistry, { now: new Date(Date.now() + 60_000) });
    expect(network.acceptedMessages).toHaveLength(2);
    expect((await post(resumeRoute, `/v1/campaigns/${id}/resume`, undefined, admin(), { id })).body.status).toBe("sending");
    await oneRun();
    expect(network.acceptedMessages).toHaveLength(4);
    const cancelled = await post(cancelRoute, `/v1/campaigns/${id}/cancel`, undefined, admin(), { id });
    expect(cancelled.body).toMatchObject({ status: "cancelled", counts: { sent: 4, skipped: 3, queued: 0 } });
    await drainJobs(systemContext(), jobRegistry, { now: new Date(Date.now() + 60_000) });
    expect(network.acceptedMessages).toHaveLength(4);
    expect(new Set(network.acceptedMessages.map((m) => m.to)).size).toBe(4);
    expect((await recipients(id, "?status=skipped")).every((r) => r.reason === "cancelled")).toBe(true);
    expect((await post(resumeRoute, `/v1/campaigns/${id}/resume`, undefined, admin(), { id })).status).toBe(409);
  });

  it("keeps one pacer however often it is rescheduled, paused and resumed: the pace holds", async () => {
    await createTemplate("spring_catalogue");
    await call(settingsRoute.PUT, { method: "PUT", path: "/v1/config/campaigns", token: admin(), body: { messages_per_second: 2 } });
    const list = [];
    for (let i = 0; i < 10; i++) list.push(await addContact(`3461100090${i}`, { name: `C${i}`, marketingOptIn: true }));
    const id = (await post(campaignsRoute, "/v1/campaigns", campaignBody({ contact_ids: list.map((c) => c.id) }))).body.id as string;
    const schedule = async (body: Record<string, unknown>) => expect((await post(scheduleRoute, `/v1/campaigns/${id}/schedule`, body, admin(), { id })).status).toBe(200);
    const action = async (route: typeof pauseRoute, verb: string) => expect((await post(route, `/v1/campaigns/${id}/${verb}`, undefined, admin(), { id })).status).toBe(200);
    const pacers = async () =>
      (await getDb().select().from(jobs).where(sql`${jobs.kind} = 'campaign.dispatch' and ${jobs.status} in ('pending', 'running') and ${jobs.payload} ->> 'campaignId' = ${id}`)).length;
    const sent = () => network.acceptedMessages.filter((m) => m.type === "template").length;
    // One claim of the runner, hours ahead: every job written so far is due, whatever time it was for.
    const oneRound = () => drainJobs(systemContext(), jobRegistry, { maxRounds: 1, now: new Date(Date.now() + 3 * 3600_000) });

    await schedule({ send_at: new Date(Date.now() + 3600_000).toISOString() });
    await schedule({ send_at: new Date(Date.now() + 1800_000).toISOString() });
    await schedule({});
    expect(await pacers()).toBe(1);
    await oneRound();
    expect(sent()).toBe(2);
    await action(pauseRoute, "pause");
    await action(resumeRoute, "resume");
    await action(pauseRoute, "pause");
    await action(resumeRoute, "resume");
    expect(await pacers()).toBe(1);
    // One second's share per run of the one pacer: 2, not 4 or 6.
    await oneRound();
    expect(sent()).toBe(4);
    await oneRound();
    expect(sent()).toBe(6);
    expect(await pacers()).toBe(1);
    expect(await runUntilSettled(id)).toBe("done");
    expect(sent()).toBe(10);
    expect(new Set(network.acceptedMessages.map((m) => m.to)).size).toBe(10);
  });

  it("does not message a customer who writes STOP while the campaign is sending: they are skipped as opted out", async () => {
    await createTemplate("spring_catalogue");
    await call(settingsRoute.PUT, { method: "PUT", path: "/v1/config/campaigns", token: admin(), body: { messages_per_second: 2 } });
    const list = [];
    for (let i = 0; i < 4; i++) list.push(await addContact(`3461100097${i}`, { name: `C${i}`, marketingOptIn: true }));
    const id = (await post(campaignsRoute, "/v1/campaigns", campaignBody({ contact_ids: list.map((c) => c.id) }))).body.id as string;
    await post(scheduleRoute, `/v1/campaigns/${id}/schedule`, {}, admin(), { id });
    await drainJobs(systemContext(), jobRegistry, { maxRounds: 1 });
    expect(network.acceptedMessages.filter((m) => m.type === "template")).toHaveLength(2);
    const late = list[3];
    expect((await inbound([{ from: late.phone!, name: "C3", type: "text", text: "STOP" }])).status).toBe(200);
    expect(await runUntilSettled(id)).toBe("done");
    expect(network.acceptedMessages.filter((m) => m.type === "template").map((m) => m.to).sort()).toEqual(list.slice(0, 3).map((c) => c.phone).sort());
    expect((await recipients(id)).find((r) => r.contact_id === late.id)).toMatchObject({ status: "skipped", reason: "opted_out" });
  });

  it("announces the conversations it starts as one started by hand is: an event each, delivered to the webhooks subscribed to it", async () => {
    await createTemplate("spring_catalogue");
    const db = getDb();
    const hook = (id: string, events: string[], status: "active" | "disabled" = "active") =>
      db.insert(webhooks).values({ id, accountId: account.account.id, url: "https://hooks.example/chorus", events, secret: "whsec_campaign-test-0123456789", status });
    await hook(newId("webhook", new Date()), ["conversation.created"]);
    await hook(newId("webhook", new Date()), ["*"]);
    await hook(newId("webhook", new Date()), ["message.received"]);
    await hook(newId("webhook", new Date()), ["conversation.created"], "disabled");
    const list = [];
    for (let i = 0; i < 3; i++) list.push(await addContact(`3461100095${i}`, { name: `C${i}`, marketingOptIn: true }));
    const id = (await post(campaignsRoute, "/v1/campaigns", campaignBody({ contact_ids: list.map((c) => c.id) }))).body.id as string;
    await post(scheduleRoute, `/v1/campaigns/${id}/schedule`, {}, admin(), { id });
    expect(await runUntilSettled(id)).toBe("done");

    const created = await db.select().from(events).where(sql`${events.accountId} = ${account.account.id} and ${events.type} = 'conversation.created'`);
    expect(created.map((e) => (e.data as { conversation: { contact: { id: string } } }).conversation.contact.id).sort()).toEqual(list.map((c) => c.id).sort());
    const deliveries = await db.select().from(webhookDeliveries).where(sql`${webhookDeliveries.accountId} = ${account.account.id} and ${webhookDeliveries.eventType} = 'conversation.created'`);
    // Two subscribed, active webhooks: two deliveries of each event, each carrying that event.
    expect(deliveries).toHaveLength(6);
    expect(new Set(deliveries.map((d) => d.id)).size).toBe(6);
    for (const event of created) {
      const mine = deliveries.filter((d) => d.eventId === event.id);
      expect(mine).toHaveLength(2);
      for (const d of mine) expect(JSON.parse(d.payload as string)).toMatchObject({ id: event.id, type: "conversation.created", data: { conversation: { id: (event.data as { conversation: { id: string } }).conversation.id } } });
    }
    const [trail] = rowsOf<{ n: string | number }>(await db.execute(sql`select count(*) as n from conversation_activities where account_id = ${account.account.id} and type = 'created'`));
    expect(Number(trail.n)).toBe(3);
  });

  it("after a crash mid-campaign and a restart, messages every remaining recipient exactly once and never resends one that was in flight", async () => {
    await createTemplate("spring_catalogue");
    await call(settingsRoute.PUT, { method: "PUT", path: "/v1/config/campaigns", token: admin(), body: { messages_per_second: 3 } });
    const list = [];
    for (let i = 0; i < 9; i++) list.push(await addContact(`3461100020${i}`, { name: `C${i}`, marketingOptIn: true }));
    const id = (await post(campaignsRoute, "/v1/campaigns", campaignBody({ contact_ids: list.map((c) => c.id) }))).body.id as string;
    await post(scheduleRoute, `/v1/campaigns/${id}/schedule`, {}, admin(), { id });
    await drainJobs(systemContext(), jobRegistry, { maxRounds: 1 });
    expect(network.acceptedMessages).toHaveLength(3);

    // What kill -9 leaves: the dispatch job claimed (running, its lease held by a dead process),
    // and the next recipient claimed with its message, its send to the network in flight.
    const db = getDb();
    await db.execute(sql`update ${jobs} set status = 'running', locked_until = now() + interval '1 hour', run_at = now() where kind = 'campaign.dispatch' and account_id = ${account.account.id}`);
    const [next] = await db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, id)).orderBy(campaignRecipients.id).offset(3).limit(1);
    const inFlight = list.find((c) => c.id === next.contactId)!;
    await db.update(campaignRecipients).set({ status: "sending", updatedAt: new Date(Date.now() - 60_000) }).where(eq(campaignRecipients.id, next.id));
    network.acceptedMessages.push({ id: "wamid.in-flight", to: inFlight.phone!, type: "template", body: {} });

    // The restart: the embedded database's stale claims are released, the runner goes on.
    expect(await releaseAllStaleClaims(db)).toBeGreaterThan(0);
    expect(await runUntilSettled(id)).toBe("done");
    for (const contact of list) expect(acceptedTo(contact.phone!), contact.phone!).toHaveLength(1);
    const byContact = new Map((await recipients(id)).map((r) => [r.contact_id, r]));
    expect(byContact.get(inFlight.id)).toMatchObject({ status: "failed", reason: "interrupted" });
    expect((await getCampaign(id)).body.counts).toMatchObject({ recipients: 9, sent: 8, failed: 1 });
  });

  /**
   * What kill -9 leaves when it comes between the network taking a recipient's message and the
   * run recording the answer: the recipient claimed (`sending`, a minute ago), its message
   * written and `queued`, the network holding it, and the dispatch job claimed by the dead process.
   */
  async function killedAfterTheNetworkTookOne(id: string) {
    const db = getDb();
    const [campaign] = await db.select().from(campaignsTable).where(eq(campaignsTable.id, id));
    const [next] = await db.select().from(campaignRecipients).where(sql`${campaignRecipients.campaignId} = ${id} and ${campaignRecipients.status} = 'pending'`).orderBy(campaignRecipients.id).limit(1);
    const made = await prepareShare(systemContext(), campaign, [next.id], false, new Date());
    expect(made.due).toHaveLength(1);
    expect(await claimRecipients(db, campaign, [next.id], false)).toEqual(new Set([next.id]));
    const handed = await handOverQueuedMessage(systemContext(), { messageId: made.due[0].messageId }, { startRecordedByCaller: true });
    expect("sent" in handed).toBe(true);
    await db.execute(sql`update ${jobs} set status = 'running', locked_until = now() + interval '1 hour', run_at = now() where kind = 'campaign.dispatch' and account_id = ${account.account.id}`);
    await db.update(campaignRecipients).set({ updatedAt: new Date(Date.now() - 60_000) }).where(eq(campaignRecipients.id, next.id));
    const accepted = network.acceptedMessages.at(-1)!;
    // The network hands our id back in every status of the message.
    expect(accepted.callbackData).toBe(made.due[0].messageId);
    return { contactId: next.contactId, messageId: made.due[0].messageId, accepted };
  }

  /** A campaign to `count` consenting contacts at 3 a second, its first second's share sent. */
  async function campaignAfterItsFirstShare(count: number, phonePrefix: string) {
    await createTemplate("spring_catalogue");
    await call(settingsRoute.PUT, { method: "PUT", path: "/v1/config/campaigns", token: admin(), body: { messages_per_second: 3 } });
    const list = [];
    for (let i = 0; i < count; i++) list.push(await addContact(`${phonePrefix}${i}`, { name: `C${i}`, marketingOptIn: true }));
    const id = (await post(campaignsRoute, "/v1/campaigns", campaignBody({ contact_ids: list.map((c) => c.id) }))).body.id as string;
    await post(scheduleRoute, `/v1/campaigns/${id}/schedule`, {}, admin(), { id });
    await drainJobs(systemContext(), jobRegistry, { maxRounds: 1 });
    return { id, list };
  }

  it("a recipient failed interrupted by a crash is counted sent once the network's status for its message comes, and is never sent again", async () => {
    const { id, list } = await campaignAfterItsFirstShare(9, "3461100110");
    expect(network.acceptedMessages).toHaveLength(3);
    const lost = await killedAfterTheNetworkTookOne(id);

    // The restart settles it before the network's status comes (the server was down when it was sent).
    expect(await releaseAllStaleClaims(getDb())).toBeGreaterThan(0);
    expect(await runUntilSettled(id)).toBe("done");
    const byContact = async () => new Map((await recipients(id)).map((r) => [r.contact_id, r]));
    expect((await byContact()).get(lost.contactId)).toMatchObject({ status: "failed", reason: "interrupted" });
    expect((await getCampaign(id)).body.counts).toMatchObject({ recipients: 9, sent: 8, failed: 1 });

    // The network's statuses for it, redelivered once the server is back.
    const status = (value: string) => ({ id: lost.accepted.id, status: value, recipientId: lost.accepted.to, callbackData: lost.accepted.callbackData });
    expect((await statuses([status("sent")])).status).toBe(200);
    expect((await statuses([status("delivered")])).status).toBe(200);
    expect((await byContact()).get(lost.contactId)).toMatchObject({ status: "delivered", reason: null, message_id: lost.messageId });
    expect((await getCampaign(id)).body.counts).toMatchObject({ recipients: 9, sent: 9, delivered: 1, failed: 0 });
    const [message] = await getDb().select().from(messages).where(eq(messages.id, lost.messageId));
    expect(message).toMatchObject({ status: "delivered", networkMessageId: lost.accepted.id, error: null });
    const sentEvents = await getDb().select().from(events).where(sql`${events.accountId} = ${account.account.id} and ${events.type} = 'message.sent' and ${events.data} -> 'message' ->> 'id' = ${lost.messageId}`);
    expect(sentEvents).toHaveLength(1);

    // Redelivered again: nothing changes; nobody was messaged twice.
    expect((await statuses([status("sent")])).status).toBe(200);
    expect((await getCampaign(id)).body.counts).toMatchObject({ recipients: 9, sent: 9, delivered: 1, failed: 0 });
    for (const contact of list) expect(acceptedTo(contact.phone!), contact.phone!).toHaveLength(1);
  });

  it("a status that comes before the restart settles the crash records the message, and the restart counts the recipient sent", async () => {
    const { id, list } = await campaignAfterItsFirstShare(6, "3461100120");
    const lost = await killedAfterTheNetworkTookOne(id);

    expect((await statuses([{ id: lost.accepted.id, status: "sent", recipientId: lost.accepted.to, callbackData: lost.accepted.callbackData }])).status).toBe(200);
    const [message] = await getDb().select().from(messages).where(eq(messages.id, lost.messageId));
    expect(message).toMatchObject({ status: "sent", networkMessageId: lost.accepted.id });

    expect(await releaseAllStaleClaims(getDb())).toBeGreaterThan(0);
    expect(await runUntilSettled(id)).toBe("done");
    expect(new Map((await recipients(id)).map((r) => [r.contact_id, r])).get(lost.contactId)).toMatchObject({ status: "sent", reason: null });
    expect((await getCampaign(id)).body.counts).toMatchObject({ recipients: 6, sent: 6, failed: 0 });
    for (const contact of list) expect(acceptedTo(contact.phone!), contact.phone!).toHaveLength(1);
  });

  it("a recipient settled interrupted while the network's status recorded its message follows the message at the next settling", async () => {
    const { id } = await campaignAfterItsFirstShare(6, "3461100130");
    const lost = await killedAfterTheNetworkTookOne(id);
    // What two transactions side by side can leave on PostgreSQL: the settling read the message as
    // queued and failed the recipient `interrupted`, while the status recorded the message `sent`
    // (after the status had looked for a recipient to correct, when it was still `sending`).
    const db = getDb();
    await db.update(messages).set({ status: "sent", networkMessageId: lost.accepted.id }).where(eq(messages.id, lost.messageId));
    await db.update(campaignRecipients).set({ status: "failed", reason: "interrupted" }).where(eq(campaignRecipients.messageId, lost.messageId));

    expect(await releaseAllStaleClaims(db)).toBeGreaterThan(0);
    expect(await runUntilSettled(id)).toBe("done");
    expect(new Map((await recipients(id)).map((r) => [r.contact_id, r])).get(lost.contactId)).toMatchObject({ status: "sent", reason: null });
    expect((await getCampaign(id)).body.counts).toMatchObject({ recipients: 6, sent: 6, failed: 0 });
  });

  it("after a crash while its audience was being written, the next run writes the rest: everyone messaged once, the cost fixed", async () => {
    await createTemplate("spring_catalogue");
    const list = [];
    for (let i = 0; i < 6; i++) list.push(await addContact(`3461100030${i}`, { name: `C${i}`, marketingOptIn: true, createdAt: new Date(Date.now() + i) }));
    const id = (await post(campaignsRoute, "/v1/campaigns", campaignBody({ contact_ids: list.map((c) => c.id) }))).body.id as string;
    expect((await post(scheduleRoute, `/v1/campaigns/${id}/schedule`, {}, admin(), { id })).status).toBe(200);
    // What a process killed while writing the audience leaves: the campaign started, two of its
    // six recipients written, no cost yet.
    const db = getDb();
    await db.execute(sql`update campaigns set status = 'sending', started_at = now(), estimated_cost = null where id = ${id}`);
    for (const contact of list.slice(0, 2)) {
      await db.execute(sql`insert into campaign_recipients (account_id, campaign_id, contact_id, idempotency_key, status, updated_at)
        values (${account.account.id}, ${id}, ${contact.id}, ${`${id}:${contact.id}`}, 'pending', now())`);
    }
    expect(await runUntilSettled(id)).toBe("done");
    for (const contact of list) expect(acceptedTo(contact.phone!), contact.phone!).toHaveLength(1);
    const campaign = (await getCampaign(id)).body;
    expect(campaign.counts).toMatchObject({ recipients: 6, sent: 6 });
    expect(campaign.estimated_cost.priced + campaign.estimated_cost.unpriced).toBe(6);
    // In the audience's order.
    expect((await recipients(id)).map((r) => r.contact_id)).toEqual(list.map((c) => c.id));
  });

  it("schedules for later and starts when the time comes", async () => {
    await createTemplate("spring_catalogue");
    const c = await addContact("34611000301", { name: "Ana", marketingOptIn: true });
    const id = (await post(campaignsRoute, "/v1/campaigns", campaignBody({ contact_ids: [c.id] }))).body.id as string;
    const at = new Date(Date.now() + 3600_000).toISOString();
    const scheduled = await post(scheduleRoute, `/v1/campaigns/${id}/schedule`, { send_at: at }, admin(), { id });
    expect(scheduled.body).toMatchObject({ status: "scheduled", send_at: at });
    await drainJobs(systemContext(), jobRegistry);
    expect(network.acceptedMessages).toHaveLength(0);
    expect((await call(campaignRoute.PATCH, { method: "PATCH", path: `/v1/campaigns/${id}`, token: admin(), params: { id }, body: { name: "Spring, final" } })).body.name).toBe("Spring, final");
    await drainJobs(systemContext(), jobRegistry, { now: new Date(Date.now() + 3601_000) });
    expect(acceptedTo(c.phone!)).toHaveLength(1);
    expect((await call(campaignRoute.DELETE, { method: "DELETE", path: `/v1/campaigns/${id}`, token: admin(), params: { id } })).status).toBe(204);
  });
});

describe("opt-out keywords", () => {
  it("a Spanish customer's BAJA opts them out and gets the Spanish confirmation; the conversation stays a normal one", async () => {
    const phone = "34611000401";
    expect((await inbound([{ from: phone, name: "Lucía", type: "text", text: "  baja " }])).status).toBe(200);
    const [contact] = await getDb().select().from(contacts).where(eq(contacts.phone, phone));
    expect(contact.marketingOptIn).toBe(false);
    await drainJobs(systemContext(), jobRegistry);
    const texts = acceptedTo(phone).map((m) => (m.body as { text?: { body: string } }).text?.body);
    expect(texts).toContain(OPT_OUT_CONFIRMATIONS.es);

    // A Portuguese customer who wrote before, then "Sair"; an English "Stop!"; a sentence is no keyword.
    await inbound([{ from: "5511987650001", name: "João", type: "text", text: "Olá, vocês entregam em Campinas amanhã?" }]);
    await inbound([{ from: "5511987650001", type: "text", text: "Sair" }]);
    await inbound([{ from: "14155550199", type: "text", text: "Stop!" }]);
    await inbound([{ from: "14155550198", type: "text", text: "Please stop sending me these" }]);
    await drainJobs(systemContext(), jobRegistry);
    const textTo = (to: string) => acceptedTo(to).map((m) => (m.body as { text?: { body: string } }).text?.body);
    expect(textTo("5511987650001")).toContain(OPT_OUT_CONFIRMATIONS.pt);
    expect(textTo("14155550199")).toContain(OPT_OUT_CONFIRMATIONS.en);
    expect(textTo("14155550198")).not.toContain(OPT_OUT_CONFIRMATIONS.en);
    const consent = async (p: string) => (await getDb().select().from(contacts).where(eq(contacts.phone, p)))[0].marketingOptIn;
    expect(await consent("14155550198")).toBeNull();
    expect(await consent("14155550199")).toBe(false);
    // The customer can still be answered in their conversation.
    const [conversation] = await getDb().select().from(conversations).where(eq(conversations.contactId, contact.id));
    expect(conversation.status).toBe("open");
    const contactRes = await call(contactRoute.GET, { path: `/v1/contacts/${contact.id}`, token: admin(), params: { id: contact.id } });
    expect(contactRes.body.marketing_opt_in).toBe(false);
    const consentAgain = await call(contactRoute.PATCH, { method: "PATCH", path: `/v1/contacts/${contact.id}`, token: admin(), params: { id: contact.id }, body: { marketing_opt_in: true } });
    expect(consentAgain.body.marketing_opt_in).toBe(true);
  });
});

describe("contact import", () => {
  it("previews with per-row errors, then imports the good rows and reports the bad ones", async () => {
    const existing = await addContact("34611000501", { name: "Old name", attributes: { tier: "gold" } });
    const csv = [
      "Phone,Name,city,marketing_opt_in",
      "+34 611 00 05 01,Ana Gómez,Madrid,yes",
      "611000502,\"Bea, la de Sevilla\",Sevilla,no",
      "not-a-phone,Carla,Bilbao,yes",
      "+34611000503,Dora,,maybe",
      "0034 611 000 502,Bea again,Cádiz,",
      "+351 912 345 678,Eva,Lisboa,",
      "",
    ].join("\r\n");
    const preview = await post(importRoute, "/v1/contacts/import", { csv, preview: true, default_country: "ES" });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body).toMatchObject({ preview: true, rows: 6, valid: 3, created: 0, updated: 0 });
    expect(preview.body.errors).toEqual([
      { line: 4, column: "phone", message: expect.stringMatching(/not a valid phone number/) },
      { line: 5, column: "marketing_opt_in", message: expect.any(String) },
      { line: 6, column: "phone", message: "repeats the number of line 3" },
    ]);
    expect(preview.body.sample[0]).toMatchObject({ phone: "34611000501", exists: true, marketing_opt_in: true, attributes: { city: "Madrid" } });
    expect((await getDb().select().from(contacts).where(eq(contacts.accountId, account.account.id))).length).toBe(1);

    const imported = await post(importRoute, "/v1/contacts/import", { csv, default_country: "ES" });
    expect(imported.body).toMatchObject({ preview: false, valid: 3, created: 2, updated: 1 });
    const rows = await getDb().select().from(contacts).where(eq(contacts.accountId, account.account.id));
    expect(rows).toHaveLength(3);
    const ana = rows.find((r) => r.id === existing.id)!;
    expect(ana).toMatchObject({ name: "Ana Gómez", marketingOptIn: true, attributes: { tier: "gold", city: "Madrid" } });
    expect(rows.find((r) => r.phone === "34611000502")).toMatchObject({ name: "Bea, la de Sevilla", marketingOptIn: false });
    expect(rows.find((r) => r.phone === "351912345678")).toMatchObject({ name: "Eva", marketingOptIn: null });

    for (const body of [{ csv: "name\nAna" }, { csv: "" }, { csv: "phone\n" + "34611000600\n".repeat(20_001) }, { csv: 5 }]) {
      const res = await post(importRoute, "/v1/contacts/import", body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("validation_error");
    }
  });

  it("never turns an opt-out back on: a file (or the import's default) saying yes leaves an opted-out customer opted out", async () => {
    // Opted out by their own STOP, and opted out as recorded by the business.
    const stopPhone = "34611000801";
    expect((await inbound([{ from: stopPhone, name: "Lola", type: "text", text: "STOP" }])).status).toBe(200);
    const recorded = await addContact("34611000802", { name: "Marta", marketingOptIn: false });
    const never = await addContact("34611000803", { name: "Nora" });
    const agreed = await addContact("34611000804", { name: "Olga", marketingOptIn: true });
    const csv = ["phone,name,marketing_opt_in", `+${stopPhone},Lola,yes`, "+34611000802,Marta,true", "+34611000803,Nora,yes", "+34611000804,Olga,no", ""].join("\n");
    const preview = await post(importRoute, "/v1/contacts/import", { csv, preview: true });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.sample.map((r: { marketing_opt_in: boolean | null }) => r.marketing_opt_in)).toEqual([false, false, true, false]);
    const imported = await post(importRoute, "/v1/contacts/import", { csv });
    expect(imported.body).toMatchObject({ valid: 4, updated: 4 });
    // The import's own default for rows without a consent cell does not either.
    expect((await post(importRoute, "/v1/contacts/import", { csv: `phone\n+${stopPhone}\n+34611000802\n`, marketing_opt_in: true })).status).toBe(200);
    const consent = async (phone: string) => (await getDb().select().from(contacts).where(eq(contacts.phone, phone)))[0].marketingOptIn;
    expect(await consent(stopPhone)).toBe(false);
    expect(await consent(recorded.phone!)).toBe(false);
    expect(await consent(never.phone!)).toBe(true);
    expect(await consent(agreed.phone!)).toBe(false);
    // A campaign to all four messages only the one who agreed in the file.
    await createTemplate("spring_catalogue");
    const ids = (await getDb().select().from(contacts).where(eq(contacts.accountId, account.account.id))).map((c) => c.id);
    const created = await post(campaignsRoute, "/v1/campaigns", campaignBody({ contact_ids: ids }));
    const id = created.body.id as string;
    await post(scheduleRoute, `/v1/campaigns/${id}/schedule`, {}, admin(), { id });
    expect(await runUntilSettled(id)).toBe("done");
    expect(network.acceptedMessages.filter((m) => m.type === "template").map((m) => m.to)).toEqual([never.phone]);
  });

  it("labels a contact, refusing labels that are not the account's", async () => {
    const c = await addContact("34611000701");
    const label = await createLabel("VIP");
    expect((await setLabels(c.id, [label])).body).toMatchObject({ contact_id: c.id, labels: [{ id: label, name: "VIP" }] });
    const bad = await setLabels(c.id, ["lbl_01jd2x8k3f0m6q1v9w4r7t5y2z"]);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("label_ids.0");
    expect((await call(contactRoute.GET, { path: `/v1/contacts/${c.id}`, token: admin(), params: { id: c.id } })).body.labels).toHaveLength(1);
    void messages;
  });
});
