import { and, eq, inArray, sql } from "drizzle-orm";
import type { SystemContext } from "@/lib/auth/context";
import { getDb, notYielding } from "@/db";
import { campaignRecipients, messages } from "@/db/schema";
import { type HandedOver, recordSentMessages } from "@/lib/messages/send-queued-message";
import type { Due } from "./prepare";

const INTERRUPTED = {
  code: "interrupted",
  message: "Sending stopped while this message was being handed to the network (a crash or restart); it may have arrived, so it is not sent again.",
};

/**
 * A recipient still `sending` longer than any send can take (the network's answer times out
 * before) was claimed by a run that died. When its message shows what happened (the network
 * took it, or refused it) the recipient says the same; when it is still queued the network
 * cannot be asked whether it arrived, so it is never sent again (at most once), and counted
 * failed with the reason `interrupted`. Younger ones may still be with a live run, and are left alone.
 */
export const STALE_SENDING_MS = 20_000;
export async function settleInterrupted(campaignId: string, now: Date) {
  const at = now.toISOString();
  const cutoff = new Date(now.getTime() - STALE_SENDING_MS).toISOString();
  await getDb().execute(sql`
    with stale as (
      select r.id, m.status as message_status, m.error ->> 'code' as error_code
      from ${campaignRecipients} r left join ${messages} m on m.id = r.message_id
      where r.campaign_id = ${campaignId} and r.status = 'sending' and r.updated_at < ${cutoff}::timestamptz
    ),
    settled as (
      update ${campaignRecipients} r set
        status = case when s.message_status in ('sent', 'delivered', 'read') then 'sent' else 'failed' end,
        reason = case when s.message_status in ('sent', 'delivered', 'read') then null
          when s.message_status = 'failed' then coalesce(s.error_code, 'send_failed') else 'interrupted' end,
        updated_at = ${at}::timestamptz
      from stale s where r.id = s.id and r.status = 'sending'
      returning r.message_id, r.reason
    )
    update ${messages} set status = 'failed', error = ${JSON.stringify(INTERRUPTED)}::jsonb, updated_at = ${at}::timestamptz
    where id in (select message_id from settled where reason = 'interrupted') and status = 'queued'`);
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
export async function recordOutcomes(outcomes: Outcome[]) {
  if (!outcomes.length) return;
  const db = getDb();
  const at = new Date().toISOString();
  const done = outcomes.filter((o) => o.result === "done").map((o) => o.recipient.id);
  if (done.length) {
    await db.execute(sql`update ${campaignRecipients} r set
        status = case when m.status = 'failed' then 'failed' else 'sent' end,
        reason = case when m.status = 'failed' then coalesce(m.error ->> 'code', 'send_failed') else null end,
        updated_at = ${at}::timestamptz
      from ${messages} m
      where m.id = r.message_id and r.status = 'sending' and r.id in (select (jsonb_array_elements_text(${JSON.stringify(done)}::jsonb))::bigint)`);
  }
  const retries = outcomes.flatMap((o) => (typeof o.result === "object" ? [{ id: o.recipient.id, run_at: o.result.retryAt.toISOString() }] : []));
  if (retries.length) {
    await db.execute(sql`update ${campaignRecipients} set status = 'pending', run_at = x.run_at, updated_at = ${at}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(retries)}::jsonb) as x(id bigint, run_at timestamptz)
      where ${campaignRecipients.id} = x.id and ${campaignRecipients.status} = 'sending'`);
  }
  const lost = outcomes.filter((o) => o.result === "interrupted").map((o) => o.recipient);
  if (lost.length) {
    // Whether the network got them is unknown: never again (as settleInterrupted).
    await db.transaction(async (tx) => {
      await tx
        .update(campaignRecipients)
        .set({ status: "failed", reason: "interrupted", updatedAt: new Date(at) })
        .where(inArray(campaignRecipients.id, lost.map((r) => r.id)));
      await tx
        .update(messages)
        .set({ status: "failed", error: INTERRUPTED, updatedAt: new Date(at) })
        .where(and(inArray(messages.id, lost.map((r) => r.messageId)), eq(messages.status, "queued")));
    });
  }
}

