import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as sandboxInboundRoute from "@/app/api/sandbox/inbound/route";
import * as webhookRoute from "@/app/api/network/webhook/route";
import * as csatRoute from "@/app/v1/config/csat/route";
import * as numberRoute from "@/app/v1/config/number/route";
import * as closeRoute from "@/app/v1/conversations/[id]/close/route";
import * as reopenRoute from "@/app/v1/conversations/[id]/reopen/route";
import * as conversationRoute from "@/app/v1/conversations/[id]/route";
import * as messagesRoute from "@/app/v1/conversations/[id]/messages/route";
import * as summaryRoute from "@/app/v1/reports/summary/route";
import { getDb } from "@/db";
import { conversations, jobs, messages } from "@/db/schema";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { DEFAULT_CSAT_QUESTION } from "@/lib/csat/schemas";
import { call } from "@/tests/support/api";
import { setEnv } from "@/tests/support/env-vars";
import { buildInboundPayload, type FakeCloudNetwork, signHubPayload, startFakeCloudNetwork } from "@/tests/support/fake-cloud-network";
import { createTestAccount } from "@/tests/support/fixtures";
import { eventsOf, nextPhone } from "@/tests/support/messaging";
import { drain } from "@/tests/support/webhooks";

const QUESTION = "How did we do today?";
type Account = Awaited<ReturnType<typeof createTestAccount>>;

async function enableSurvey(account: Account, enabled = true) {
  const res = await call(csatRoute.PUT, { method: "PUT", path: "/v1/config/csat", token: account.adminToken, body: { enabled, question: QUESTION } });
  expect(res.status).toBe(200);
}

async function customerSays(account: Account, from: string, body: Record<string, unknown>) {
  const res = await call(sandboxInboundRoute.POST, { method: "POST", path: "/api/sandbox/inbound", token: account.adminToken, body: { from, ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; conversation_id: string; text: string };
}

const text = (account: Account, from: string, words: string) => customerSays(account, from, { type: "text", text: words });

async function close(account: Account, id: string) {
  const res = await call(closeRoute.POST, { method: "POST", path: "/", token: account.adminToken, params: { id } });
  expect(res.status, res.text).toBe(200);
  await drain();
}

async function reopen(account: Account, id: string) {
  const res = await call(reopenRoute.POST, { method: "POST", path: "/", token: account.adminToken, params: { id } });
  expect(res.status, res.text).toBe(200);
}

const getConversation = async (account: Account, id: string) =>
  (await call(conversationRoute.GET, { path: "/", token: account.adminToken, params: { id } })).body;

const surveysOf = (conversationId: string) =>
  getDb()
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        eq(messages.senderType, "automation"),
        eq(messages.type, "interactive"),
        sql`${messages.content}->'interactive'->>'body' = ${QUESTION}`,
      ),
    );

/** A conversation with a customer, closed with the survey on, the survey sent. */
async function surveyed(account: Account) {
  const from = nextPhone();
  const first = await text(account, from, "Where is my order?");
  await close(account, first.conversation_id);
  return { from, id: first.conversation_id };
}

describe("satisfaction survey through the sandbox", () => {
  let account: Account;
  beforeEach(async () => {
    resetRateLimiters();
    account = await createTestAccount();
  });

  it("reads as off with a default question until saved, and refuses a question over 200 characters", async () => {
    const initial = await call(csatRoute.GET, { path: "/v1/config/csat", token: account.adminToken });
    expect(initial.body).toEqual({ enabled: false, question: DEFAULT_CSAT_QUESTION });
    const long = await call(csatRoute.PUT, { method: "PUT", path: "/v1/config/csat", token: account.adminToken, body: { enabled: true, question: "x".repeat(201) } });
    expect(long.status).toBe(400);
    expect(long.body.error.details).toEqual([{ path: "question", message: "must be at most 200 characters", code: "too_big", params: { origin: "string", maximum: 200, inclusive: true } }]);
    expect((await call(csatRoute.GET, { path: "/v1/config/csat", token: account.adminToken })).body.enabled).toBe(false);
  });

  it("asks nothing while the survey is off", async () => {
    const from = nextPhone();
    const first = await text(account, from, "Hello");
    await close(account, first.conversation_id);
    expect(await surveysOf(first.conversation_id)).toHaveLength(0);
    // A digit is then an ordinary message: it reopens the conversation.
    await text(account, from, "5");
    expect(await getConversation(account, first.conversation_id)).toMatchObject({ status: "open", csat: null });
  });

  it("sends the question as an interactive list once per close, from automation", async () => {
    await enableSurvey(account);
    const { id } = await surveyed(account);
    const [survey, ...more] = await surveysOf(id);
    expect(more).toHaveLength(0);
    // Stored as the interactive list it is: the thread and the API show the list the customer sees.
    expect(survey).toMatchObject({
      direction: "outbound",
      senderType: "automation",
      type: "interactive",
      status: "sent",
      content: {
        interactive: {
          type: "list",
          body: QUESTION,
          button: "Rate us",
          sections: [
            {
              title: "Rate us",
              rows: [
                { id: "csat_1", title: "1 - Very poor" },
                { id: "csat_2", title: "2 - Poor" },
                { id: "csat_3", title: "3 - Okay" },
                { id: "csat_4", title: "4 - Good" },
                { id: "csat_5", title: "5 - Excellent" },
              ],
            },
          ],
        },
      },
    });
    const listed = await call(messagesRoute.GET, { path: `/v1/conversations/${id}/messages`, token: account.adminToken, params: { id } });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.find((message: { id: string }) => message.id === survey.id)).toMatchObject({
      type: "interactive",
      interactive: { type: "list", body: QUESTION, button: "Rate us", sections: [{ rows: expect.arrayContaining([{ id: "csat_5", title: "5 - Excellent" }]) }] },
    });
    const [sendJob] = await getDb().select().from(jobs).where(and(eq(jobs.kind, "message.send"), eq(jobs.accountId, account.account.id)));
    expect(sendJob.payload).toEqual({ messageId: survey.id });
    // A survey job run again (at-least-once delivery) asks nothing twice.
    const [surveyJob] = await getDb().select().from(jobs).where(and(eq(jobs.kind, "csat.survey"), eq(jobs.accountId, account.account.id)));
    await getDb().update(jobs).set({ status: "pending", runAt: new Date() }).where(eq(jobs.id, surveyJob.id));
    await drain();
    expect(await surveysOf(id)).toHaveLength(1);
    expect(await getConversation(account, id)).toMatchObject({ status: "closed", csat: null });
  });

  it("stores a bare digit reply as the score, keeps the conversation closed and emits conversation.rated", async () => {
    await enableSurvey(account);
    const { from, id } = await surveyed(account);
    const before = await getConversation(account, id);
    const answer = await text(account, from, " 5 ");
    expect(answer.conversation_id).toBe(id);
    const rated = await getConversation(account, id);
    expect(rated).toMatchObject({ status: "closed", unread_count: before.unread_count, csat: { score: 5, at: expect.any(String) } });
    const [event] = await eventsOf(account.account.id, "conversation.rated");
    expect(event.data).toMatchObject({ conversation: { id, status: "closed", csat: { score: 5 } } });
    // No automatic answer to a rating.
    const autoReplies = await getDb().select().from(jobs).where(and(eq(jobs.kind, "message.auto-reply"), eq(jobs.accountId, account.account.id)));
    expect(autoReplies.map((job) => job.payload.messageId)).not.toContain(answer.id);
    const summary = await call(summaryRoute.GET, { path: "/v1/reports/summary", token: account.adminToken });
    expect(summary.body.csat).toEqual({ responses: 1, average: 5, distribution: { "1": 0, "2": 0, "3": 0, "4": 0, "5": 1 } });
  });

  it("keeps the first answer: a second one is an ordinary message", async () => {
    await enableSurvey(account);
    const { from, id } = await surveyed(account);
    await text(account, from, "4");
    await text(account, from, "2");
    const after = await getConversation(account, id);
    expect(after.csat.score).toBe(4);
    expect(after.status).toBe("open");
    expect(await eventsOf(account.account.id, "conversation.rated")).toHaveLength(1);
  });

  it("takes the customer's choice from the list", async () => {
    await enableSurvey(account);
    const { from, id } = await surveyed(account);
    const answer = await customerSays(account, from, { type: "interactive", interactive: { type: "list_reply", id: "csat_3", title: "3 - Okay" } });
    // Kept as the inbound kind it is: an interactive list reply.
    expect(answer).toMatchObject({ conversation_id: id, type: "interactive", interactive: { type: "list_reply", id: "csat_3", title: "3 - Okay" } });
    expect(await getConversation(account, id)).toMatchObject({ status: "closed", csat: { score: 3 } });
  });

  it.each([
    ["a digit outside 1–5", "7"],
    ["a zero", "0"],
    ["a digit with words", "5 thanks"],
    ["a number", "45"],
    ["a word", "five"],
  ])("treats %s as an ordinary message", async (_name, words) => {
    await enableSurvey(account);
    const { from, id } = await surveyed(account);
    await text(account, from, words);
    expect(await getConversation(account, id)).toMatchObject({ status: "open", csat: null });
    expect(await eventsOf(account.account.id, "conversation.rated")).toHaveLength(0);
  });

  it("treats an answer after 24 hours as an ordinary message", async () => {
    await enableSurvey(account);
    const { from, id } = await surveyed(account);
    await getDb().update(conversations).set({ csatAskedAt: new Date(Date.now() - 24 * 3_600_000 - 1_000) }).where(eq(conversations.id, id));
    await text(account, from, "5");
    expect(await getConversation(account, id)).toMatchObject({ status: "open", csat: null });
  });

  it("refuses an interactive answer without its choice, naming the field", async () => {
    const res = await call(sandboxInboundRoute.POST, { method: "POST", path: "/api/sandbox/inbound", token: account.adminToken, body: { from: nextPhone(), type: "interactive" } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: "interactive", message: "is required for interactive messages", code: "custom" }]);
  });

  it("asks again after a reopening and a new close, never once rated", async () => {
    await enableSurvey(account);
    const { from, id } = await surveyed(account);
    await reopen(account, id);
    // Reopened: a bare digit may answer an agent's question, so it is an ordinary message.
    await text(account, from, "3");
    expect((await getConversation(account, id)).csat).toBeNull();
    await close(account, id);
    expect(await surveysOf(id)).toHaveLength(2);
    await customerSays(account, from, { type: "interactive", interactive: { type: "list_reply", id: "csat_5", title: "5 - Excellent" } });
    await reopen(account, id);
    await close(account, id);
    expect(await surveysOf(id)).toHaveLength(2);
    expect((await getConversation(account, id)).csat.score).toBe(5);
  });
});

describe("satisfaction survey through the cloud network", () => {
  const ACCESS_TOKEN = "EAAG-fake-network-token-csat";
  const APP_SECRET = "fake-app-secret-csat-0123456789";
  let network: FakeCloudNetwork;
  let account: Account;
  let restoreEnv: () => void;

  beforeAll(() => {
    restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true" });
  });
  afterAll(() => restoreEnv());
  beforeEach(async () => {
    resetRateLimiters();
    const phoneNumberId = `3065403522${String(Math.floor(Math.random() * 1e5)).padStart(5, "0")}`;
    network = await startFakeCloudNetwork({ accessToken: ACCESS_TOKEN, phoneNumberId });
    account = await createTestAccount();
    const res = await call(numberRoute.PUT, {
      method: "PUT",
      path: "/v1/config/number",
      token: account.adminToken,
      body: {
        provider: "cloud",
        phone_number: "+14155552671",
        phone_number_id: phoneNumberId,
        business_account_id: "102290129340398",
        access_token: ACCESS_TOKEN,
        app_secret: APP_SECRET,
        verify_token: `verify-csat-${phoneNumberId}`,
        api_base_url: network.apiBaseUrl,
      },
    });
    expect(res.status, res.text).toBe(200);
  });
  afterEach(async () => {
    await network.close();
  });

  function postWebhook(payload: unknown) {
    const rawBody = JSON.stringify(payload);
    return call(webhookRoute.POST, {
      method: "POST",
      path: "/api/network/webhook",
      rawBody,
      headers: { "content-type": "application/json", "x-hub-signature-256": signHubPayload({ appSecret: APP_SECRET, rawBody }) },
    });
  }

  it("sends the Graph API's interactive list and takes the list_reply the network reports", async () => {
    await enableSurvey(account);
    const from = nextPhone();
    const hello = await postWebhook(buildInboundPayload({ phoneNumberId: network.phoneNumberId, messages: [{ from, type: "text", text: "Hi" }] }));
    expect(hello.status).toBe(200);
    const [conversation] = await getDb().select().from(conversations).where(eq(conversations.accountId, account.account.id));
    await close(account, conversation.id);

    const [survey] = await surveysOf(conversation.id);
    expect(network.requests.map((request) => request.body)).toEqual([
      {
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: from,
        biz_opaque_callback_data: survey.id,
        type: "interactive",
        interactive: {
          type: "list",
          body: { text: QUESTION },
          action: {
            button: "Rate us",
            sections: [
              {
                title: "Rate us",
                rows: [
                  { id: "csat_1", title: "1 - Very poor" },
                  { id: "csat_2", title: "2 - Poor" },
                  { id: "csat_3", title: "3 - Okay" },
                  { id: "csat_4", title: "4 - Good" },
                  { id: "csat_5", title: "5 - Excellent" },
                ],
              },
            ],
          },
        },
      },
    ]);
    expect(survey).toMatchObject({ status: "sent", networkMessageId: network.acceptedMessages[0].id });

    const answer = await postWebhook(
      buildInboundPayload({
        phoneNumberId: network.phoneNumberId,
        messages: [{ from, type: "interactive", payload: { type: "list_reply", list_reply: { id: "csat_2", title: "2 - Poor", description: "" } } }],
      }),
    );
    expect(answer.status).toBe(200);
    expect(await getConversation(account, conversation.id)).toMatchObject({ status: "closed", csat: { score: 2 } });
    const [stored] = await getDb()
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, conversation.id), eq(messages.direction, "inbound"), eq(messages.type, "interactive")));
    expect(stored.content).toMatchObject({ interactive: { type: "list_reply", id: "csat_2", title: "2 - Poor" } });
  });
});
