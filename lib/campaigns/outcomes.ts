import type { SystemContext } from "@/lib/auth/context";
import { type Executor, notYielding } from "@/db";
import { type HandedOver, recordSentMessages } from "@/lib/messages/send-queued-message";
import type { Due } from "./prepare";
import { failInterrupted, putBackInLine, settleAnswered, settleReachedNetwork, settleStaleSending } from "./store/sending";

/**
 * A recipient still `sending` longer than any send can take (the network's answer times out
 * before) was claimed by a run that died. When its message shows what happened (the network
 * took it, or refused it) the recipient says the same; when it is still queued the network
 * cannot be asked whether it arrived, so it is never sent again (at most once), and counted
 * failed with the reason `interrupted`. Younger ones may still be with a live run, and are left alone.
 */
export const STALE_SENDING_MS = 20_000;
export async function settleInterrupted(db: Executor, campaignId: string, now: Date) {
  await settleStaleSending(db, { campaignId, cutoff: new Date(now.getTime() - STALE_SENDING_MS), at: now });
}

export type Outcome = { recipient: Due; result: "done" | "interrupted" | { retryAt: Date } };

/**
 * How long an answer may wait for others before it is recorded: the answers of a few sends go in
 * one transaction instead of one each (on the embedded database each transaction holds it, and
 * an agent's send waits for the one in progress). A crash in that moment leaves those recipients
 * `interrupted`: counted failed, never messaged twice. The wait counts from the oldest answer
 * waiting, so answers that came while the previous batch was written are recorded as soon as it
 * is, not after a further wait.
 */
const ANSWERS_GATHER_MS = 50;

/**
 * The network's answers, recorded together: one transaction (a statement per step) for the
 * answers that came within `gatherMs` of the oldest one waiting, or while the previous batch
 * was written. Resolves whether the answer was recorded.
 */
export function answerRecorder(ctx: SystemContext, gatherMs = ANSWERS_GATHER_MS) {
  let waiting: { sent: HandedOver; done: (recorded: boolean) => void }[] = [];
  let oldest = 0;
  let writing = false;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    if (writing || !waiting.length) return;
    const batch = waiting;
    waiting = [];
    writing = true;
    // Not yielding: until recorded, a message the network took would count as `interrupted`
    // after a crash. A few short transactions a second.
    notYielding(() => recordSentMessages(ctx, batch.map((b) => b.sent)))
      .then(
        () => batch.forEach((b) => b.done(true)),
        () => batch.forEach((b) => b.done(false)),
      )
      .finally(() => {
        writing = false;
        later();
      });
  };
  const later = () => {
    if (timer || writing || !waiting.length) return;
    timer = setTimeout(flush, Math.max(0, oldest + gatherMs - Date.now()));
  };
  return (sent: HandedOver) =>
    new Promise<boolean>((resolve) => {
      if (!waiting.length) oldest = Date.now();
      waiting.push({ sent, done: resolve });
      later();
    });
}

/** What the second's sends came to, in a statement per kind of outcome. */
export async function recordOutcomes(db: Executor, outcomes: Outcome[]) {
  if (!outcomes.length) return;
  const at = new Date();
  await settleAnswered(db, outcomes.filter((o) => o.result === "done").map((o) => o.recipient.id), at);
  await putBackInLine(db, outcomes.flatMap((o) => (typeof o.result === "object" ? [{ id: o.recipient.id, runAt: o.result.retryAt }] : [])), at);
  // Whether the network got them is unknown: never again (as settleInterrupted).
  await failInterrupted(db, outcomes.filter((o) => o.result === "interrupted").map((o) => ({ id: o.recipient.id, messageId: o.recipient.messageId })), at);
}

/**
 * A recipient failed `interrupted` was never sent again, and whether the message arrived was
 * unknown; when the network's status for it comes after all (matched by the message's callback
 * data), the recipient is counted as the message shows: `sent` (or `failed` with the network's code).
 */
export async function recipientsReachedNetwork(db: Executor, { accountId, messageIds }: { accountId: string; messageIds: string[] }) {
  await settleReachedNetwork(db, { accountId, messageIds, at: new Date() });
}
