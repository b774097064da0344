import type { SystemContext } from "@/lib/auth/context";
import { yieldingToOthers } from "@/db/priority";
import type { Campaign } from "@/db/schema";
import { z } from "zod";
import { defineJob, type JobContext, type JobOutcome, type PayloadOf } from "@/lib/jobs/define";
import { handOverQueuedMessage } from "@/lib/messages/send-queued-message";
import { answerRecorder, type Outcome, recordOutcomes, STALE_SENDING_MS, settleInterrupted } from "./outcomes";
import { nextSlotAt, type Pace, startPace, takeSlot, WARM_UP_MS, warmUpWaitMs } from "./pace";
import { type Due, type Integration, prepareShare, type Written } from "./prepare";
import { loadCampaignSettings } from "./settings";
import { startCampaign, writeAudience } from "./start";
import { campaignState, claimRecipients, dueRecipientIds, findCampaignById, finishCampaign, recipientsLeft } from "./store/sending";

/**
 * Recipients with the network at the same time: enough to keep the pace while the network takes
 * up to half a second to answer (the answers are recorded together, and on the embedded
 * database the campaign's statements yield to everyone else's, so more in flight costs the
 * agents nothing).
 */
const concurrency = (perSecond: number) => Math.min(MAX_IN_FLIGHT, Math.max(4, Math.ceil(perSecond / 2)));
const MAX_IN_FLIGHT = 64;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How long one run of `campaign.dispatch` keeps sending before it hands back to the job runner
 * (a server that stops waits for the run in flight). Tests set 0: one second's share per run.
 */
let dispatchRunMs = 15_000;
export function setDispatchRunMs(ms: number) {
  dispatchRunMs = ms;
}

/** How long after this process first ran a pacer a pacer sends its first message (pace.ts). Tests set 0. */
let warmUpMs = WARM_UP_MS;
let firstRunAt: number | undefined;
export function setCampaignWarmUpMs(ms: number) {
  warmUpMs = ms;
}

/**
 * The pace of each pacer (a campaign and its generation) in this process, kept across its
 * runs: a run that takes over from the previous one continues its schedule, so the time the
 * job spends between two runs (recorded, claimed again) is made up for, up to MAX_LAG_MS,
 * instead of being lost every run.
 */
const paces = new Map<string, Pace>();

type Recorder = ReturnType<typeof answerRecorder>;
type Share = { count: number; lastId: number; dispatched: Promise<void>; tail: Promise<void> };

/**
 * One share of the campaign: up to a second's worth of due recipients after `after` (by id),
 * made ready in small parts (prepareShare), each handed to the network at its slot of the pace
 * (claimed a tenth of a second's worth at a time), at most `concurrency()` with the network at
 * once. `dispatched` settles once each recipient of the share has its sender (its slot may be
 * still to come: the next share is read and made ready meanwhile), `tail` once every send has
 * the network's answer and the outcomes are recorded, while later shares are sent: bookkeeping
 * never delays the pace.
 */
async function sendShare(ctx: SystemContext, campaign: Campaign, requireOptIn: boolean, pace: Pace, after: number, record: Recorder): Promise<Share> {
  const perSecond = pace.perSecond;
  const dueIds = await dueRecipientIds(ctx.db, { campaignId: campaign.id, after, limit: perSecond, now: new Date() });
  if (!dueIds.length) return { count: 0, lastId: after, dispatched: Promise.resolve(), tail: Promise.resolve() };

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
        const made = await prepareShare(ctx, campaign, ids, requireOptIn, new Date());
        return { ready: new Map(made.due.map((r) => [r.id, r])), written: made.written, integration: made.integration };
      } catch (error) {
        // Left pending, tried again by a later share; the job reports the error once this share is recorded.
        failure ??= error;
        return { ready: new Map<number, Due>(), written: new Map<string, Written>() };
      }
    });
    parts.push(part);
    previous = part;
  }
  const partOf = (index: number) => parts[Math.floor(index / partSize)];

  const claims = new Map<number, Promise<Set<number>>>();
  const claimGroup = (group: number) => {
    let claimed = claims.get(group);
    if (!claimed) {
      claimed = partOf(group * groupSize).then(({ ready }) =>
        claimRecipients(
          ctx.db,
          campaign,
          dueIds.slice(group * groupSize, (group + 1) * groupSize).filter((id) => ready.has(id)),
          requireOptIn,
        ),
      );
      claims.set(group, claimed);
    }
    return claimed;
  };
  const outcomes: Outcome[] = [];
  const recording: Promise<unknown>[] = [];
  let next = 0;
  let assigned = () => {};
  const dispatched = new Promise<void>((resolve) => (assigned = resolve));
  async function worker() {
    while (next < dueIds.length) {
      const index = next++;
      if (next === dueIds.length) assigned();
      const { ready, written, integration } = await partOf(index);
      const recipient = ready.get(dueIds[index]);
      // Only a recipient who is messaged takes a slot of the pace.
      if (!recipient) continue;
      const wait = takeSlot(pace, Date.now()) - Date.now();
      if (wait > 0) await sleep(wait);
      if (!(await claimGroup(Math.floor(index / groupSize))).has(recipient.id)) continue;
      try {
        const handed = await handOverQueuedMessage(ctx, { messageId: recipient.messageId }, { attempt: recipient.attempts + 1, loaded: { message: written.get(recipient.messageId), integration }, startRecordedByCaller: true });
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
  const working = Promise.all(Array.from({ length: Math.min(concurrency(perSecond), dueIds.length) }, worker)).finally(assigned);
  const tail = (async () => {
    await working;
    await Promise.all(recording);
    await recordOutcomes(ctx.db, outcomes);
    if (failure) throw failure;
  })();
  // Awaited by the run (settled()); a failure is not left unhandled meanwhile.
  tail.catch(() => {});
  return { count: dueIds.length, lastId: dueIds.at(-1)!, dispatched, tail };
}

/**
 * The `campaign.dispatch` job: starts a scheduled campaign when its time comes, then sends its
 * recipients at `messages_per_second` (pace.ts), share after share, for up to `dispatchRunMs`,
 * and is called again, until every recipient is settled (`done`). Pausing or cancelling stops it
 * at the next recipient. Safe to run again after a crash: a recipient is claimed in a committed
 * row before the network is called, and never claimed twice. A pacer's first run in a process
 * waits until `warmUpMs` after the first run of any pacer in it (the server's runner warm).
 */
/** The `campaign.dispatch` payload: the campaign, and the generation of the pacer (jobs written before generations existed are generation 0). */
const dispatchPayload = z.object({ campaignId: z.string().min(1), generation: z.number().int().optional() });

export const campaignDispatchJob = defineJob({
  kind: "campaign.dispatch",
  schema: dispatchPayload,
  // Bulk work: on the embedded database every statement of it waits until no other one is
  // waiting, so agents' sends and inbound messages go first.
  handler: (payload, context) => yieldingToOthers(() => dispatch(context.system, payload, context)),
});

declare module "@/lib/jobs/define" {
  interface JobPayloads {
    "campaign.dispatch": PayloadOf<typeof campaignDispatchJob>;
  }
}

async function dispatch(ctx: SystemContext, { campaignId, generation = 0 }: z.output<typeof dispatchPayload>, { now }: Pick<JobContext, "now">): Promise<JobOutcome> {
  const db = ctx.db;
  // A pacer of an earlier schedule or resume: the current one sends.
  // The pace its previous run in this process left (only a run that hands back keeps it).
  const key = `${campaignId}:${generation}`;
  let pace = paces.get(key);
  paces.delete(key);
  let campaign = await findCampaignById(db, campaignId);
  if (!campaign) return;
  if (campaign.dispatchGeneration !== generation) return;
  if (campaign.status === "scheduled") {
    if (campaign.sendAt && campaign.sendAt.getTime() > now.getTime()) return { retryAt: campaign.sendAt };
    campaign = (await startCampaign(db, campaign, new Date()))!;
  }
  if (!campaign || campaign.status !== "sending" || campaign.dispatchGeneration !== generation) return;
  if (!pace) {
    firstRunAt ??= Date.now();
    const wait = warmUpWaitMs(Date.now() - firstRunAt, warmUpMs);
    if (wait > 0) return { retryAt: new Date(Date.now() + wait) };
  }
  // Its audience is not written in full yet (just started, or the run that started it died).
  if (campaign.estimatedCost === null) {
    campaign = (await writeAudience(db, campaign))!;
    if (!campaign || campaign.status !== "sending" || campaign.dispatchGeneration !== generation) return;
  }
  await settleInterrupted(db, campaign.id, new Date());
  const settings = await loadCampaignSettings(db, campaign.accountId);
  if (pace?.perSecond !== settings.messages_per_second) pace = startPace(settings.messages_per_second, Date.now());

  const runStarted = Date.now();
  // One recorder for the run: the answers at the end of a share and the start of the next go together.
  const record = answerRecorder(ctx);
  const tails: Promise<void>[] = [];
  // Every share's outcomes recorded (the first failure thrown).
  const settled = async () => {
    const failed = (await Promise.allSettled(tails.splice(0))).find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
  };
  let after = 0;
  let takenAtRestart = -1;
  for (;;) {
    const share = await sendShare(ctx, campaign, settings.require_opt_in, pace, after, record);
    tails.push(share.tail);
    // The next share is read and made ready while this one's last slots are still to come.
    await share.dispatched;
    if (share.count === 0) {
      await settled();
      // Recipients before the last share's that are due again (a retry, one not claimed): from
      // the start, unless nobody was messaged since the last time round.
      if (after > 0 && pace.taken !== takenAtRestart) {
        after = 0;
        takenAtRestart = pace.taken;
        continue;
      }
      break;
    }
    after = share.lastId;
    // This run has lasted long enough: the runner calls again, and the next run keeps the pace.
    if (Date.now() - runStarted >= dispatchRunMs) {
      await settled();
      paces.set(key, pace);
      return { retryAt: new Date(Math.max(Date.now(), nextSlotAt(pace))) };
    }
    // Paused, cancelled, or paused and resumed meanwhile (the resume started a pacer of its own).
    const current = await campaignState(db, campaign.id);
    if (current?.status !== "sending" || current.generation !== generation) {
      await settled();
      return;
    }
  }

  const left = await recipientsLeft(db, campaign.id);
  if (left.pending > 0) {
    // Only retries waiting (or recipients another process holds): the runner calls again when due.
    return { retryAt: new Date(Math.max(left.soonest?.getTime() ?? 0, Date.now() + 1000)) };
  }
  if (left.sending > 0) {
    // Only sends a dead run left behind: settled once they are stale.
    await settleInterrupted(db, campaign.id, new Date());
    return { retryAt: new Date(Date.now() + STALE_SENDING_MS / 4) };
  }
  await finishCampaign(db, campaign.id, new Date());
}
