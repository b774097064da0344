import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { getDb, yieldingToOthers } from "@/db";
import { type Campaign, campaignRecipients, campaigns } from "@/db/schema";
import type { JobContext, JobOutcome } from "@/lib/jobs/runner";
import { handOverQueuedMessage } from "@/lib/messages/send-queued-message";
import { answerRecorder, type Outcome, recordOutcomes, STALE_SENDING_MS, settleInterrupted } from "./outcomes";
import { type Due, type Integration, mayMessage, prepareShare, type Written } from "./prepare";
import { loadCampaignSettings } from "./settings";
import { startCampaign, writeAudience } from "./start";

/**
 * Recipients with the network at the same time: enough to keep the pace while the network takes
 * up to half a second to answer (the answers are recorded together, and on the embedded
 * database the campaign's statements yield to everyone else's, so more in flight costs the
 * agents nothing).
 */
const concurrency = (perSecond: number) => Math.min(MAX_IN_FLIGHT, Math.max(4, Math.ceil(perSecond / 2)));
const MAX_IN_FLIGHT = 64;
const TICK_MS = 1000;
/** How late a second may start and still send its whole share by its end. */
const CATCH_UP_MS = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Claims recipients (`pending` → `sending`) in one committed statement just before their turn,
 * only while the campaign is sending by this pacer and their contact may still be messaged (an
 * opt-out that arrives meanwhile is honoured; such a recipient is skipped by the next share).
 */
async function claim(campaign: Campaign, ids: number[], requireOptIn: boolean) {
  if (!ids.length) return new Set<number>();
  const rows = await getDb()
    .update(campaignRecipients)
    .set({ status: "sending", attempts: sql`${campaignRecipients.attempts} + 1`, updatedAt: new Date() })
    .where(
      and(
        inArray(campaignRecipients.id, ids),
        eq(campaignRecipients.status, "pending"),
        sql`exists (select 1 from ${campaigns} where ${campaigns.id} = ${campaign.id} and ${campaigns.status} = 'sending' and ${campaigns.dispatchGeneration} = ${campaign.dispatchGeneration})`,
        mayMessage(requireOptIn),
      ),
    )
    .returning({ id: campaignRecipients.id });
  return new Set(rows.map((r) => r.id));
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

/**
 * One second's share of the campaign: `messages_per_second` due recipients, made ready in small
 * parts (prepareShare), each handed to the network at its slot in the second (claimed a tenth
 * of a second's worth at a time), at most `concurrency()` with the network at once; their
 * outcomes recorded together at the end of the second.
 */
async function sendOneSecond(campaign: Campaign, planned: number): Promise<"finished" | { nextTick: number; onlyRetries: boolean }> {
  const db = getDb();
  const settings = await loadCampaignSettings(db, campaign.accountId);
  const perSecond = settings.messages_per_second;
  // The second's slots are counted from when it was due, not from when the previous second's
  // last answers were recorded: that tail would otherwise be added to every second, and the
  // pace would fall short of `messages_per_second`. The first slots of a second that starts
  // late go at once (at most half a second's worth; a longer stall is not made up for).
  const beganAt = Math.max(planned, Date.now() - CATCH_UP_MS);
  const began = performance.now() - (Date.now() - beganAt);
  const dueIds = (
    await db
      .select({ id: campaignRecipients.id })
      .from(campaignRecipients)
      .where(
        and(
          eq(campaignRecipients.campaignId, campaign.id),
          eq(campaignRecipients.status, "pending"),
          sql`(${campaignRecipients.runAt} is null or ${campaignRecipients.runAt} <= ${new Date().toISOString()}::timestamptz)`,
        ),
      )
      .orderBy(asc(campaignRecipients.id))
      .limit(perSecond)
  ).map((r) => r.id);

  // Slots are claimed a tenth of a second's worth at a time, and made ready two claims' worth
  // at a time, one part after the other, while the earlier parts are already being sent.
  const groupSize = Math.max(1, Math.ceil(perSecond / 10));
  const partSize = groupSize * 2;
  const parts: Promise<{ ready: Map<number, Due>; written: Map<string, Written>; integration?: Integration }>[] = [];
  let failure: unknown;
  let previous: Promise<unknown> = Promise.resolve();
  for (let start = 0; start < dueIds.length; start += partSize) {
    const ids = dueIds.slice(start, start + partSize);
    const part = previous.then(async () => {
      try {
        const made = await prepareShare(campaign, ids, settings.require_opt_in, new Date());
        return { ready: new Map(made.due.map((r) => [r.id, r])), written: made.written, integration: made.integration };
      } catch (error) {
        // Left pending, tried again next second; the job reports the error once the second is recorded.
        failure ??= error;
        return { ready: new Map<number, Due>(), written: new Map<string, Written>() };
      }
    });
    parts.push(part);
    previous = part;
  }
  const partOf = (index: number) => parts[Math.floor(index / partSize)];

  const spacing = TICK_MS / perSecond;
  const claims = new Map<number, Promise<Set<number>>>();
  const claimGroup = (group: number) => {
    let claimed = claims.get(group);
    if (!claimed) {
      claimed = partOf(group * groupSize).then(({ ready }) =>
        claim(
          campaign,
          dueIds.slice(group * groupSize, (group + 1) * groupSize).filter((id) => ready.has(id)),
          settings.require_opt_in,
        ),
      );
      claims.set(group, claimed);
    }
    return claimed;
  };
  const outcomes: Outcome[] = [];
  const record = answerRecorder();
  const recording: Promise<unknown>[] = [];
  let next = 0;
  async function worker() {
    while (next < dueIds.length) {
      const index = next++;
      const wait = began + index * spacing - performance.now();
      if (wait > 0) await sleep(wait);
      const { ready, written, integration } = await partOf(index);
      const recipient = ready.get(dueIds[index]);
      if (!recipient || !(await claimGroup(Math.floor(index / groupSize))).has(recipient.id)) continue;
      try {
        const handed = await handOverQueuedMessage({ messageId: recipient.messageId }, { attempt: recipient.attempts + 1, loaded: { message: written.get(recipient.messageId), integration } });
        if ("outcome" in handed) {
          const outcome = handed.outcome;
          outcomes.push({ recipient, result: outcome && "retryAt" in outcome ? { retryAt: outcome.retryAt } : "done" });
        } else {
          // The answer is recorded with the others that come meanwhile; this sender goes on to its next slot.
          recording.push(record(handed.sent).then((recorded) => outcomes.push({ recipient, result: recorded ? "done" : "interrupted" })));
        }
      } catch {
        outcomes.push({ recipient, result: "interrupted" });
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency(perSecond), dueIds.length) }, worker));
  await Promise.all(recording);
  await recordOutcomes(outcomes);
  if (failure) throw failure;

  const [left] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${campaignRecipients.status} = 'pending')`,
      sending: sql<number>`count(*) filter (where ${campaignRecipients.status} = 'sending')`,
      soonest: sql<string | null>`min(${campaignRecipients.runAt}) filter (where ${campaignRecipients.status} = 'pending')`,
    })
    .from(campaignRecipients)
    .where(and(eq(campaignRecipients.campaignId, campaign.id), inArray(campaignRecipients.status, ["pending", "sending"])));
  if (Number(left.pending) === 0 && Number(left.sending) === 0) return "finished";
  const nextTick = beganAt + TICK_MS;
  // Only sends a dead run left behind: settled once they are stale.
  if (Number(left.pending) === 0) {
    await settleInterrupted(campaign.id, new Date());
    return { nextTick: Math.max(nextTick, Date.now() + STALE_SENDING_MS / 4), onlyRetries: true };
  }
  const soonest = left.soonest ? new Date(left.soonest).getTime() : 0;
  if (dueIds.length === 0 && soonest > nextTick) return { nextTick: soonest, onlyRetries: true };
  return { nextTick, onlyRetries: false };
}

/**
 * The `campaign.dispatch` job: starts a scheduled campaign when its time comes, then sends one
 * second's share of recipients each second (`messages_per_second`, spread evenly over the
 * second) for up to `dispatchRunMs`, and is called again, until every recipient is settled (`done`). Pausing or
 * cancelling stops it at the next recipient. Safe to run again after a crash: a recipient is
 * claimed in a committed row before the network is called, and never claimed twice.
 */
export function runCampaignDispatch(payload: Record<string, unknown>, context: Pick<JobContext, "now">): Promise<JobOutcome> {
  // Bulk work: on the embedded database every statement of it waits until no other one is
  // waiting, so agents' sends and inbound messages go first.
  return yieldingToOthers(() => dispatch(payload, context));
}

async function dispatch(payload: Record<string, unknown>, { now }: Pick<JobContext, "now">): Promise<JobOutcome> {
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
  // Its audience is not written in full yet (just started, or the run that started it died).
  if (campaign.estimatedCost === null) {
    campaign = (await writeAudience(campaign))!;
    if (!campaign || campaign.status !== "sending" || campaign.dispatchGeneration !== generation) return;
  }
  await settleInterrupted(campaign.id, new Date());

  const runStarted = Date.now();
  let planned = runStarted;
  for (;;) {
    const outcome = await sendOneSecond(campaign, planned);
    if (outcome === "finished") break;
    const { nextTick, onlyRetries } = outcome;
    planned = nextTick;
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
