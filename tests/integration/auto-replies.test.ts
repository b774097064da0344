import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type Executor, getDb } from "@/db";
import { conversations, messages } from "@/db/schema";
import { newId } from "@/lib/platform/ids";
import { runAutoReplies, type SendAutomatedMessage } from "@/lib/auto-replies/auto-replies";
import { createAutoReplyJob } from "@/lib/auto-replies/job";
import { parsePayload } from "@/lib/jobs/define";
import { updateBusinessProfile } from "@/lib/profile/business-profile";
import { businessProfileInput } from "@/lib/profile/schemas";
import { createTestAccount } from "@/tests/support/fixtures";
import { BUSINESS_NUMBER, seedConversation, seedMessage } from "@/tests/support/seed";
import { systemContext, verbContext } from "@/lib/server/context";

type Sent = { accountId: string; conversationId: string; to: string; text: string };

/** A send path that stores the automated message like the real one would, and records the call. */
function recordingSend() {
  const calls: Sent[] = [];
  const send: SendAutomatedMessage = async ({ tx, accountId, conversationId, to, text }) => {
    calls.push({ accountId, conversationId, to, text });
    const now = new Date();
    await tx.insert(messages).values({
      id: newId("message", now), accountId, conversationId, direction: "outbound", fromNumber: BUSINESS_NUMBER, toNumber: to,
      type: "text", text, status: "queued", senderType: "automation", createdAt: now, updatedAt: now,
    });
  };
  return { calls, send };
}

async function accountWithHours() {
  const test = await createTestAccount();
  await updateBusinessProfile({
    ctx: verbContext({ accountId: test.account.id }),
    input: businessProfileInput.parse({
      name: "Green Leaf",
      description: "",
      hours: { timezone: "Europe/Madrid", weekly: Object.fromEntries(["mon", "tue", "wed", "thu", "fri"].map((day) => [day, [{ open: "09:00", close: "18:00" }]])) },
      auto_reply: { outside_hours: { enabled: true, message: "Gracias por escribirnos, ahora estamos cerrados." }, hours_question: { enabled: true } },
    }),
  });
  return test;
}

const automated = (conversationId: string) =>
  getDb().select().from(messages).where(and(eq(messages.conversationId, conversationId), eq(messages.senderType, "automation")));
const conversationRow = async (id: string) => (await getDb().select().from(conversations).where(eq(conversations.id, id)))[0];
const seconds = (date: Date, s: number) => new Date(date.getTime() + s * 1000);
// Monday 2026-11-23, 20:00 in Madrid: closed, opening again on Tuesday at 09:00.
const mondayEvening = new Date("2026-11-23T19:00:00.000Z");

describe("runAutoReplies", () => {
  it("answers an inbound message outside hours once, through the injected send path, and stamps the conversation", async () => {
    const { account } = await accountWithHours();
    const { conversation, contact } = await seedConversation({ accountId: account.id });
    const inbound = await seedMessage({ accountId: account.id, conversationId: conversation.id, phone: contact.phone, direction: "inbound", text: "Hola, ¿hacen envíos?", createdAt: mondayEvening });
    const { calls, send } = recordingSend();

    const result = await runAutoReplies(systemContext(), { accountId: account.id, conversationId: conversation.id, messageId: inbound.id, send, now: seconds(inbound.createdAt, 1) });
    expect(result.replies.map((r) => r.kind)).toEqual(["outside_hours"]);
    expect(calls).toEqual([{ accountId: account.id, conversationId: conversation.id, to: contact.phone, text: "Gracias por escribirnos, ahora estamos cerrados.\nPróxima apertura: mañana 09:00 (Europe/Madrid)." }]);
    const stamped = await conversationRow(conversation.id);
    expect(stamped.lastAutoReplyAt?.toISOString()).toBe(inbound.createdAt.toISOString());
    expect(stamped.autoReplyHandledMessageId).toBe(inbound.id);

    // The job runs again (a retry after a crash): nothing more is sent.
    const again = await runAutoReplies(systemContext(), { accountId: account.id, conversationId: conversation.id, messageId: inbound.id, send, now: seconds(inbound.createdAt, 5) });
    expect(again).toEqual({ replies: [], skipped: "already_handled" });
    expect(calls).toHaveLength(1);
    expect(await automated(conversation.id)).toHaveLength(1);
  });

  it("stays quiet for 12 hours, but still answers an hours question, in the customer's language", async () => {
    const { account } = await accountWithHours();
    const { conversation, contact } = await seedConversation({ accountId: account.id });
    const { calls, send } = recordingSend();
    let minute = 0;
    const run = async (text: string) => {
      const createdAt = seconds(mondayEvening, 60 * minute++);
      const message = await seedMessage({ accountId: account.id, conversationId: conversation.id, phone: contact.phone, direction: "inbound", text, createdAt });
      return runAutoReplies(systemContext(), { accountId: account.id, conversationId: conversation.id, messageId: message.id, send, now: seconds(message.createdAt, 1) });
    };
    expect((await run("Hello, do you have cactus?")).replies.map((r) => r.kind)).toEqual(["outside_hours"]);
    expect((await run("Hello??")).replies).toEqual([]);
    const question = await run("What time do you open?");
    expect(question.replies.map((r) => [r.kind, r.language, r.countsAsOutsideHours])).toEqual([["hours_question", "en", false]]);
    expect(calls[1].text).toBe(
      "Next opening: tomorrow 09:00 (Europe/Madrid).\n\nOur opening hours:\nMonday: 09:00–18:00\nTuesday: 09:00–18:00\nWednesday: 09:00–18:00\nThursday: 09:00–18:00\nFriday: 09:00–18:00\nSaturday: Closed\nSunday: Closed\nTime zone: Europe/Madrid",
    );
    expect(await automated(conversation.id)).toHaveLength(2);
  });

  it("answers again once 12 hours have passed since the last outside-hours answer", async () => {
    const { account } = await accountWithHours();
    const { conversation, contact } = await seedConversation({ accountId: account.id });
    await getDb().update(conversations).set({ lastAutoReplyAt: seconds(mondayEvening, -12 * 3600) }).where(eq(conversations.id, conversation.id));
    const message = await seedMessage({ accountId: account.id, conversationId: conversation.id, phone: contact.phone, direction: "inbound", text: "hola", createdAt: mondayEvening });
    const { calls, send } = recordingSend();
    await runAutoReplies(systemContext(), { accountId: account.id, conversationId: conversation.id, messageId: message.id, send, now: seconds(message.createdAt, 1) });
    expect(calls).toHaveLength(1);
  });

  it("runs inside the caller's transaction: a failing send leaves no answer and no stamp", async () => {
    const { account } = await accountWithHours();
    const { conversation, contact } = await seedConversation({ accountId: account.id });
    const message = await seedMessage({ accountId: account.id, conversationId: conversation.id, phone: contact.phone, direction: "inbound", text: "hola", createdAt: mondayEvening });
    let seenTx: Executor | undefined;
    const failing: SendAutomatedMessage = async (input) => {
      seenTx = input.tx;
      await recordingSend().send(input);
      throw new Error("network down");
    };
    await expect(
      getDb().transaction((tx) => runAutoReplies({ ...systemContext(), db: tx }, { accountId: account.id, conversationId: conversation.id, messageId: message.id, send: failing, now: seconds(message.createdAt, 1) })),
    ).rejects.toThrow("network down");
    expect(seenTx).toBeDefined();
    expect(await automated(conversation.id)).toHaveLength(0);
    const row = await conversationRow(conversation.id);
    expect(row.lastAutoReplyAt).toBeNull();
    expect(row.autoReplyHandledMessageId).toBeNull();

    // The retry (through the job handler) then answers.
    const { calls, send } = recordingSend();
    const job = createAutoReplyJob(send, { clock: () => seconds(mondayEvening, 30) });
    const handler = job.handler;
    await handler({ accountId: account.id, conversationId: conversation.id, messageId: message.id }, { jobId: 1, attempt: 2, now: new Date(), system: systemContext() });
    expect(calls).toHaveLength(1);
    expect(await automated(conversation.id)).toHaveLength(1);
    // A payload of another shape never reaches the handler: the runner fails the job with the reason.
    expect(parsePayload(job, { nope: true })).toEqual({ ok: false, failed: expect.stringContaining("invalid message.auto-reply payload") });
  });

  it("ignores outbound messages, other accounts' conversations, and answers decided too late", async () => {
    const { account } = await accountWithHours();
    const other = await accountWithHours();
    const { conversation, contact } = await seedConversation({ accountId: account.id });
    const { calls, send } = recordingSend();
    const outbound = await seedMessage({ accountId: account.id, conversationId: conversation.id, phone: contact.phone, direction: "outbound", text: "Hi!" });
    expect((await runAutoReplies(systemContext(), { accountId: account.id, conversationId: conversation.id, messageId: outbound.id, send })).skipped).toBe("not_inbound");
    const inbound = await seedMessage({ accountId: account.id, conversationId: conversation.id, phone: contact.phone, direction: "inbound", text: "hola" });
    expect((await runAutoReplies(systemContext(), { accountId: other.account.id, conversationId: conversation.id, messageId: inbound.id, send })).skipped).toBe("not_found");
    expect((await runAutoReplies(systemContext(), { accountId: account.id, conversationId: conversation.id, messageId: inbound.id, send, now: seconds(inbound.createdAt, 20 * 60) })).skipped).toBe("too_late");
    expect(calls).toHaveLength(0);
  });

  it("does nothing for an account without hours", async () => {
    const { account } = await createTestAccount();
    const { conversation, contact } = await seedConversation({ accountId: account.id });
    const message = await seedMessage({ accountId: account.id, conversationId: conversation.id, phone: contact.phone, direction: "inbound", text: "a que hora abren?" });
    const { calls, send } = recordingSend();
    expect((await runAutoReplies(systemContext(), { accountId: account.id, conversationId: conversation.id, messageId: message.id, send })).replies).toEqual([]);
    expect(calls).toHaveLength(0);
  });
});
