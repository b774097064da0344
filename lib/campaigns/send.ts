import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { getDb, getDbHandle } from "@/db";
import { type Campaign, campaignRecipients, campaigns, contacts, messages } from "@/db/schema";
import { contactAddress } from "@/lib/contacts/identity";
import { createConversation, findActiveConversation } from "@/lib/conversations/store";
import type { JobContext, JobOutcome } from "@/lib/jobs/runner";
import { previewOf } from "@/lib/messages/schemas";
import { sendQueuedMessage } from "@/lib/messages/send-queued-message";
import { insertMessage, storeMedia, touchConversation } from "@/lib/messages/store";
import { businessNumberOf, loadNumberIntegration } from "@/lib/network/integration";
import { ApiError } from "@/lib/platform/errors";
import { prepareTemplateSend } from "@/lib/templates/prepare-send";
import { audienceCondition, estimateCost, skipReasonSql, templateCategory, variableValue } from "./audience";
import { loadCampaignSettings } from "./settings";

/**
 * Recipients with the network at the same time: enough to keep the pace while the network takes
 * a few hundred milliseconds to answer. The embedded database runs one statement at a time, so
 * there more would only queue in front of the agents' own sends.
 */
const concurrency = () => (getDbHandle().kind === "pglite" ? 4 : 16);
const TICK_MS = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes one recipient row per contact of the audience (each with its idempotency key, the
 * campaign and contact ids: a second row for the same person cannot exist), `skipped` with the
 * reason for the blocked, the opted out and (when consent is required) those never asked; fixes
 * the cost estimate; and moves the campaign to `sending`. Runs once: a second run finds it started.
 */
async function startCampaign(campaign: Campaign, now: Date): Promise<Campaign | undefined> {
  const db = getDb();
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(campaigns).where(eq(campaigns.id, campaign.id)).for("update");
    if (!current || current.status !== "scheduled") return current;
    const settings = await loadCampaignSettings(tx, current.accountId);
    const reason = skipReasonSql(settings.require_opt_in);
    await tx.execute(sql`insert into ${campaignRecipients} (account_id, campaign_id, contact_id, idempotency_key, status, reason, updated_at)
      select ${contacts.accountId}, ${current.id}::text, ${contacts.id}, ${current.id}::text || ':' || ${contacts.id},
        case when (${reason}) is null then 'pending' else 'skipped' end, ${reason}, ${now.toISOString()}::timestamptz
      from ${contacts} where ${audienceCondition(current.accountId, current.audience)}
      order by ${contacts.createdAt}, ${contacts.id}
      on conflict do nothing`);
    const category = (await templateCategory(tx, current.accountId, current.template)) ?? "MARKETING";
    const phones = await tx
      .select({ phone: contacts.phone })
      .from(campaignRecipients)
      .innerJoin(contacts, eq(contacts.id, campaignRecipients.contactId))
      .where(and(eq(campaignRecipients.campaignId, current.id), eq(campaignRecipients.status, "pending")));
    const cost = await estimateCost(tx, { accountId: current.accountId, category, phones: phones.map((p) => p.phone) });
    const [updated] = await tx
      .update(campaigns)
      .set({ status: "sending", startedAt: now, estimatedCost: cost, updatedAt: now })
      .where(eq(campaigns.id, current.id))
      .returning();
    return updated;
  });
}

const INTERRUPTED = {
  code: "interrupted",
  message: "Sending stopped while this message was being handed to the network (a crash or restart); it may have arrived, so it is not sent again.",
};

/**
 * A recipient still `sending` longer than any send can take (the network's answer times out
 * before) was being handed to the network by a run that died: the network cannot be asked
 * whether it arrived, so it is never sent again (at most once), and counted failed with the
 * reason `interrupted`. Younger ones may still be with a live run, and are left alone.
 */
const STALE_SENDING_MS = 20_000;
async function settleInterrupted(campaignId: string, now: Date) {
  await getDb().transaction(async (tx) => {
    const rows = await tx
      .update(campaignRecipients)
      .set({ status: "failed", reason: "interrupted", updatedAt: now })
      .where(
        and(
          eq(campaignRecipients.campaignId, campaignId),
          eq(campaignRecipients.status, "sending"),
          sql`${campaignRecipients.updatedAt} < ${new Date(now.getTime() - STALE_SENDING_MS).toISOString()}::timestamptz`,
        ),
      )
      .returning({ messageId: campaignRecipients.messageId });
    const ids = rows.flatMap((r) => (r.messageId ? [r.messageId] : []));
    if (ids.length) {
      await tx
        .update(messages)
        .set({ status: "failed", error: INTERRUPTED, updatedAt: now })
        .where(and(inArray(messages.id, ids), eq(messages.status, "queued")));
    }
  });
}

type Due = { id: number };

/**
 * One recipient: claimed (`pending` → `sending`, only while the campaign is sending) together
 * with its message, committed before the network is called; then handed to the network and
 * recorded. A temporary network error puts it back in line for later; a contact that became
 * blocked or opted out meanwhile is skipped.
 */
async function sendToRecipient(campaign: Campaign, recipient: Due, requireOptIn: boolean) {
  const db = getDb();
  const now = new Date();
  const claimed = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(campaignRecipients)
      .set({ status: "sending", attempts: sql`${campaignRecipients.attempts} + 1`, updatedAt: now })
      .where(
        and(
          eq(campaignRecipients.id, recipient.id),
          eq(campaignRecipients.status, "pending"),
          sql`exists (select 1 from ${campaigns} where ${campaigns.id} = ${campaign.id} and ${campaigns.status} = 'sending' and ${campaigns.dispatchGeneration} = ${campaign.dispatchGeneration})`,
        ),
      )
      .returning();
    if (!row) return null;
    const skip = async (reason: string, status: "skipped" | "failed" = "skipped") => {
      await tx.update(campaignRecipients).set({ status, reason, updatedAt: now }).where(eq(campaignRecipients.id, row.id));
      // A message written for an earlier attempt is not left queued in the conversation.
      if (row.messageId) {
        await tx
          .update(messages)
          .set({ status: "failed", error: { code: reason, message: "Not sent: the campaign skipped this customer." }, updatedAt: now })
          .where(and(eq(messages.id, row.messageId), eq(messages.status, "queued")));
      }
      return null;
    };
    const [contact] = await tx.select().from(contacts).where(eq(contacts.id, row.contactId)).limit(1);
    if (!contact) return skip("contact_deleted");
    if (contact.blocked) return skip("blocked");
    if (contact.marketingOptIn === false) return skip("opted_out");
    if (contact.marketingOptIn === null && requireOptIn) return skip("no_consent");
    if (row.messageId) return { recipient: row, messageId: row.messageId };

    const values = campaign.template.variables.map((variable) => variableValue(variable, contact));
    if (values.some((value) => value === null)) return skip("missing_variable");
    let prepared: Awaited<ReturnType<typeof prepareTemplateSend>>;
    try {
      prepared = await prepareTemplateSend(tx, { accountId: campaign.accountId, template: { name: campaign.template.name, language: campaign.template.language, variables: values as string[] } });
    } catch (error) {
      if (error instanceof ApiError) return skip(error.code, "failed");
      throw error;
    }
    const integration = await loadNumberIntegration(tx, campaign.accountId);
    // The message joins the customer's open conversation; without one it starts a closed one,
    // kept out of the inbox until the customer answers (their reply reopens it).
    const active = await findActiveConversation(tx, { accountId: campaign.accountId, contactId: contact.id });
    const conversationId = active?.id ?? (await createConversation(tx, { accountId: campaign.accountId, contact, at: now, actor: { type: "automation" }, closed: true })).id;
    const stored = prepared.media ? await storeMedia(tx, { accountId: campaign.accountId, file: prepared.media, at: now }) : null;
    const content = { template: prepared.content };
    const message = await insertMessage(tx, {
      at: now,
      accountId: campaign.accountId,
      conversationId,
      direction: "outbound",
      fromNumber: businessNumberOf(integration),
      toNumber: contactAddress(contact),
      type: "template",
      text: prepared.text,
      mediaId: stored?.id ?? null,
      content,
      contextMessageId: null,
      status: "queued",
      senderType: "automation",
      senderUserId: null,
    });
    await touchConversation(tx, { conversationId, at: now, preview: previewOf({ type: "template", text: prepared.text, content }), unread: "keep" });
    await tx.update(campaignRecipients).set({ messageId: message.id }).where(eq(campaignRecipients.id, row.id));
    return { recipient: row, messageId: message.id };
  });
  if (!claimed) return;

  let outcome: Awaited<ReturnType<typeof sendQueuedMessage>>;
  try {
    outcome = await sendQueuedMessage({ messageId: claimed.messageId }, { attempt: claimed.recipient.attempts });
  } catch {
    // Whether the network got it is unknown: never again (as settleInterrupted).
    await db.transaction(async (tx) => {
      const at = new Date();
      await tx.update(campaignRecipients).set({ status: "failed", reason: "interrupted", updatedAt: at }).where(eq(campaignRecipients.id, claimed.recipient.id));
      await tx
        .update(messages)
        .set({ status: "failed", error: INTERRUPTED, updatedAt: at })
        .where(and(eq(messages.id, claimed.messageId), eq(messages.status, "queued")));
    });
    return;
  }
  const done = new Date();
  if (outcome && "retryAt" in outcome) {
    await db.update(campaignRecipients).set({ status: "pending", runAt: outcome.retryAt, updatedAt: done }).where(eq(campaignRecipients.id, claimed.recipient.id));
    return;
  }
  const [message] = await db.select({ status: messages.status, error: messages.error }).from(messages).where(eq(messages.id, claimed.messageId)).limit(1);
  const failed = !message || message.status === "failed" || (outcome && "failed" in outcome);
  await db
    .update(campaignRecipients)
    .set(failed ? { status: "failed", reason: message?.error?.code ?? "send_failed", updatedAt: done } : { status: "sent", updatedAt: done })
    .where(eq(campaignRecipients.id, claimed.recipient.id));
}

/**
 * How long one run of `campaign.dispatch` keeps sending, second after second, before it hands
 * back to the job runner (which would otherwise add its polling delay after every second).
 * Tests set 0: one second's share per run.
 */
let dispatchRunMs = 15_000;
export function setDispatchRunMs(ms: number) {
  dispatchRunMs = ms;
}

/** One second's share of the campaign: `messages_per_second` recipients, each at its slot. */
async function sendOneSecond(campaign: Campaign): Promise<"finished" | { nextTick: number; onlyRetries: boolean }> {
  const db = getDb();
  const settings = await loadCampaignSettings(db, campaign.accountId);
  const perSecond = settings.messages_per_second;
  const began = performance.now();
  const beganAt = Date.now();
  const due = await db
    .select({ id: campaignRecipients.id })
    .from(campaignRecipients)
    .where(
      and(
        eq(campaignRecipients.campaignId, campaign.id),
        eq(campaignRecipients.status, "pending"),
        sql`(${campaignRecipients.runAt} is null or ${campaignRecipients.runAt} <= ${new Date(beganAt).toISOString()}::timestamptz)`,
      ),
    )
    .orderBy(asc(campaignRecipients.id))
    .limit(perSecond);

  // Each recipient starts at its share of the second; at most `concurrency()` are with the network at once.
  let next = 0;
  const spacing = TICK_MS / perSecond;
  async function worker() {
    while (next < due.length) {
      const index = next++;
      const wait = began + index * spacing - performance.now();
      if (wait > 0) await sleep(wait);
      await sendToRecipient(campaign, due[index], settings.require_opt_in);
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency(), due.length) }, worker));

  const [left] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${campaignRecipients.status} = 'pending')`,
      sending: sql<number>`count(*) filter (where ${campaignRecipients.status} = 'sending')`,
      soonest: sql<string | null>`min(${campaignRecipients.runAt}) filter (where ${campaignRecipients.status} = 'pending')`,
    })
    .from(campaignRecipients)
    .where(and(eq(campaignRecipients.campaignId, campaign.id), inArray(campaignRecipients.status, ["pending", "sending"])));
  if (Number(left.pending) === 0 && Number(left.sending) === 0) return "finished";
  const nextTick = Math.max(beganAt + TICK_MS, Date.now());
  // Only sends a dead run left behind: settled once they are stale.
  if (Number(left.pending) === 0) {
    await settleInterrupted(campaign.id, new Date());
    return { nextTick: Math.max(nextTick, Date.now() + STALE_SENDING_MS / 4), onlyRetries: true };
  }
  const soonest = left.soonest ? new Date(left.soonest).getTime() : 0;
  if (due.length === 0 && soonest > nextTick) return { nextTick: soonest, onlyRetries: true };
  return { nextTick, onlyRetries: false };
}

/**
 * The `campaign.dispatch` job: starts a scheduled campaign when its time comes, then sends one
 * second's share of recipients each second (`messages_per_second`, spread evenly over the
 * second) for up to `dispatchRunMs`, and is called again, until every recipient is settled (`done`). Pausing or
 * cancelling stops it at the next recipient. Safe to run again after a crash: a recipient is
 * claimed in a committed row before the network is called, and never claimed twice.
 */
export async function runCampaignDispatch(payload: Record<string, unknown>, { now }: Pick<JobContext, "now">): Promise<JobOutcome> {
  const campaignId = typeof payload.campaignId === "string" ? payload.campaignId : undefined;
  if (!campaignId) return { failed: "campaign.dispatch needs a campaignId" };
  const db = getDb();
  let [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, campaignId)).limit(1);
  if (!campaign) return;
  // A pacer of an earlier schedule or resume: the current one sends (jobs written before
  // generations existed are generation 0).
  const generation = typeof payload.generation === "number" ? payload.generation : 0;
  if (campaign.dispatchGeneration !== generation) return;
  if (campaign.status === "scheduled") {
    if (campaign.sendAt && campaign.sendAt.getTime() > now.getTime()) return { retryAt: campaign.sendAt };
    campaign = (await startCampaign(campaign, new Date()))!;
  }
  if (!campaign || campaign.status !== "sending" || campaign.dispatchGeneration !== generation) return;
  await settleInterrupted(campaign.id, new Date());

  const runStarted = Date.now();
  for (;;) {
    const outcome = await sendOneSecond(campaign);
    if (outcome === "finished") break;
    const { nextTick, onlyRetries } = outcome;
    // Only retries waiting, or this run has lasted long enough: the runner calls again when due.
    if (onlyRetries || nextTick - runStarted > dispatchRunMs) return { retryAt: new Date(nextTick) };
    const wait = nextTick - Date.now();
    if (wait > 0) await sleep(wait);
    // Paused, cancelled, or paused and resumed meanwhile (the resume started a pacer of its own).
    const [current] = await db.select({ status: campaigns.status, generation: campaigns.dispatchGeneration }).from(campaigns).where(eq(campaigns.id, campaign.id));
    if (current?.status !== "sending" || current.generation !== generation) return;
  }
  const finished = new Date();
  await db
    .update(campaigns)
    .set({ status: "done", finishedAt: finished, updatedAt: finished })
    .where(and(eq(campaigns.id, campaign.id), eq(campaigns.status, "sending")));
}
