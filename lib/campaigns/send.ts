import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { getDb, notYielding, rowsOf, yieldingToOthers } from "@/db";
import type { SystemContext } from "@/lib/auth/context";
import { type Campaign, type Contact, campaignRecipients, campaigns, contacts, messages } from "@/db/schema";
import { contactAddress } from "@/lib/contacts/identity";
import { createConversations, findActiveConversations } from "@/lib/conversations/store";
import type { JobContext, JobOutcome } from "@/lib/jobs/runner";
import { previewOf } from "@/lib/messages/schemas";
import { type HandedOver, handOverQueuedMessage, recordSentMessages } from "@/lib/messages/send-queued-message";
import type { MessageKindContent } from "@/lib/messages/kinds";
import { insertMessages, type NewMessage, storeMedia, touchConversationsKeepingUnread } from "@/lib/messages/store";
import { businessNumberOf, loadNumberIntegration } from "@/lib/network/integration";
import { ApiError } from "@/lib/platform/errors";
import { prepareTemplateSends } from "@/lib/templates/prepare-send";
import { audienceCondition, estimateCost, skipReasonSql, templateCategory, variableValue } from "./audience";
import { loadCampaignSettings } from "./settings";

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
 * Starts a scheduled campaign: moves it to `sending` (in a short transaction that finds it
 * still scheduled: a second run finds it started), then writes its audience (writeAudience).
 */
async function startCampaign(campaign: Campaign, now: Date): Promise<Campaign | undefined> {
  return getDb().transaction(async (tx) => {
    const [current] = await tx.select().from(campaigns).where(eq(campaigns.id, campaign.id)).for("update");
    if (!current || current.status !== "scheduled") return current;
    const [updated] = await tx
      .update(campaigns)
      .set({ status: "sending", startedAt: now, estimatedCost: null, updatedAt: now })
      .where(eq(campaigns.id, current.id))
      .returning();
    return updated;
  });
}

/** Contacts written per part of the audience: a part's transaction holds the embedded database for milliseconds. */
const AUDIENCE_PART = 500;

/**
 * Writes one recipient row per contact of the audience (each with its idempotency key, the
 * campaign and contact ids: a second row for the same person cannot exist), `skipped` with the
 * reason for the blocked, the opted out and (when consent is required) those never asked, in
 * the audience's order; then fixes the cost estimate, which marks the audience as written. In
 * parts, each its own short transaction that finds the campaign still sending (or paused): a
 * campaign cancelled meanwhile gets no more rows, and an agent's send never waits behind the
 * whole audience. A run that dies part-way is taken up by the next one (rows already written
 * are left as they are).
 */
async function writeAudience(campaign: Campaign): Promise<Campaign | undefined> {
  const db = getDb();
  const settings = await loadCampaignSettings(db, campaign.accountId);
  const reason = skipReasonSql(settings.require_opt_in);
  let after: { at: string; id: string } | undefined;
  for (;;) {
    const last = await db.transaction(async (tx) => {
      const [current] = await tx.select({ status: campaigns.status }).from(campaigns).where(eq(campaigns.id, campaign.id)).for("update");
      if (current?.status !== "sending" && current?.status !== "paused") return undefined;
      const at = new Date().toISOString();
      // The last contact of the part, its time as text (microseconds kept) for the next part to follow.
      const [row] = rowsOf<{ at: string; id: string }>(
        await tx.execute(sql`
          with part as (
            select ${contacts.accountId} as account_id, ${contacts.id} as contact_id, ${contacts.createdAt} as created_at, ${reason} as reason
            from ${contacts}
            where ${audienceCondition(campaign.accountId, campaign.audience)}
              ${after ? sql`and (${contacts.createdAt}, ${contacts.id}) > (${after.at}::timestamptz, ${after.id}::text)` : sql``}
            order by ${contacts.createdAt}, ${contacts.id}
            limit ${AUDIENCE_PART}
          ),
          written as (
            insert into ${campaignRecipients} (account_id, campaign_id, contact_id, idempotency_key, status, reason, updated_at)
            select account_id, ${campaign.id}::text, contact_id, ${campaign.id}::text || ':' || contact_id,
              case when reason is null then 'pending' else 'skipped' end, reason, ${at}::timestamptz
            from part order by created_at, contact_id
            on conflict do nothing
          )
          select created_at::text as at, contact_id as id from part order by created_at desc, contact_id desc limit 1`),
      );
      return row ?? null;
    });
    if (last === undefined) return (await db.select().from(campaigns).where(eq(campaigns.id, campaign.id)))[0];
    if (last === null) break;
    after = last;
  }
  const category = (await templateCategory(db, campaign.accountId, campaign.template)) ?? "MARKETING";
  const phones = await db
    .select({ phone: contacts.phone })
    .from(campaignRecipients)
    .innerJoin(contacts, eq(contacts.id, campaignRecipients.contactId))
    .where(and(eq(campaignRecipients.campaignId, campaign.id), eq(campaignRecipients.status, "pending")));
  const cost = await estimateCost(db, { accountId: campaign.accountId, category, phones: phones.map((p) => p.phone) });
  const [updated] = await db
    .update(campaigns)
    .set({ estimatedCost: cost })
    .where(and(eq(campaigns.id, campaign.id), sql`${campaigns.estimatedCost} is null`))
    .returning();
  return updated ?? (await db.select().from(campaigns).where(eq(campaigns.id, campaign.id)))[0];
}

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
const STALE_SENDING_MS = 20_000;
async function settleInterrupted(campaignId: string, now: Date) {
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

type Due = { id: number; contactId: string; messageId: string; attempts: number };
type Written = Awaited<ReturnType<typeof insertMessages>>[number];
type Integration = Awaited<ReturnType<typeof loadNumberIntegration>>;

/** Recipients whose contact may be messaged now (checked again in the statement that claims them). */
const mayMessage = (requireOptIn: boolean) =>
  sql`exists (select 1 from ${contacts} c where c.id = ${campaignRecipients.contactId} and not c.blocked
    and c.marketing_opt_in is distinct from false and (c.marketing_opt_in is not null or not ${requireOptIn}::boolean))`;

/**
 * A part of the second's share, made ready in one short transaction (a statement per step for
 * all of its recipients, not per recipient): those who may no longer be messaged (blocked,
 * opted out, no consent, a missing variable, a template that no longer fits) are skipped or
 * failed with the reason; the others get their message (queued) in their open conversation or
 * in a new closed one. They stay `pending`: each is claimed just before its turn. Locked with
 * SKIP LOCKED, so another process making the same recipients ready never waits for nor doubles
 * them. Parts are small so that an agent's send, which waits for the embedded database's
 * transaction in progress, never waits long.
 */
async function prepareShare(ctx: SystemContext, campaign: Campaign, ids: number[], requireOptIn: boolean, at: Date) {
  return ctx.db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(campaignRecipients)
      .where(and(inArray(campaignRecipients.id, ids), eq(campaignRecipients.campaignId, campaign.id), eq(campaignRecipients.status, "pending")))
      .orderBy(asc(campaignRecipients.id))
      .for("update", { skipLocked: true });
    if (!rows.length) return { due: [] as Due[], written: new Map<string, Written>(), integration: undefined };
    const found = await tx.select().from(contacts).where(and(eq(contacts.accountId, campaign.accountId), inArray(contacts.id, rows.map((r) => r.contactId))));
    const contactOf = new Map(found.map((c) => [c.id, c]));

    const settled: { id: number; status: "skipped" | "failed"; reason: string; messageId: string | null }[] = [];
    const ready: Due[] = [];
    const toWrite: { row: (typeof rows)[number]; contact: Contact; values: string[] }[] = [];
    for (const row of rows) {
      const contact = contactOf.get(row.contactId);
      const reason = !contact ? "contact_deleted" : contact.blocked ? "blocked" : contact.marketingOptIn === false ? "opted_out" : contact.marketingOptIn === null && requireOptIn ? "no_consent" : null;
      if (reason || !contact) {
        settled.push({ id: row.id, status: "skipped", reason: reason ?? "contact_deleted", messageId: row.messageId });
        continue;
      }
      if (row.messageId) {
        ready.push({ id: row.id, contactId: row.contactId, messageId: row.messageId, attempts: row.attempts });
        continue;
      }
      const values = campaign.template.variables.map((variable) => variableValue(variable, contact));
      if (values.some((value) => value === null)) settled.push({ id: row.id, status: "skipped", reason: "missing_variable", messageId: null });
      else toWrite.push({ row, contact, values: values as string[] });
    }

    const prepared = await prepareTemplateSends(tx, {
      accountId: campaign.accountId,
      name: campaign.template.name,
      language: campaign.template.language,
      sends: toWrite.map((w) => ({ variables: w.values })),
    });
    const writable = toWrite.flatMap((w, i) => {
      const p = prepared[i];
      if (p instanceof ApiError) {
        settled.push({ id: w.row.id, status: "failed", reason: p.code, messageId: null });
        return [];
      }
      return [{ ...w, prepared: p }];
    });

    const integration = await loadNumberIntegration(tx, campaign.accountId);
    const written = new Map<string, Written>();
    if (writable.length) {
      // The message joins the customer's open conversation; without one it starts a closed one,
      // kept out of the inbox until the customer answers (their reply reopens it).
      const contactIds = writable.map((w) => w.contact.id);
      const active = await findActiveConversations(tx, { accountId: campaign.accountId, contactIds });
      const created = await createConversations({ ...ctx, db: tx }, {
        accountId: campaign.accountId,
        contacts: writable.filter((w) => !active.has(w.contact.id)).map((w) => w.contact),
        at,
        actor: { type: "automation" },
        closed: true,
      });
      const conversationOf = (contactId: string) => (active.get(contactId) ?? created.get(contactId))!.id;
      const newMessages: NewMessage[] = [];
      for (const w of writable) {
        const stored = w.prepared.media ? await storeMedia(tx, { accountId: campaign.accountId, file: w.prepared.media, at }) : null;
        newMessages.push({
          at,
          accountId: campaign.accountId,
          conversationId: conversationOf(w.contact.id),
          direction: "outbound",
          fromNumber: businessNumberOf(integration),
          toNumber: contactAddress(w.contact),
          type: "template",
          text: w.prepared.text,
          mediaId: stored?.id ?? null,
          content: { template: w.prepared.content },
          contextMessageId: null,
          status: "queued",
          senderType: "automation",
          senderUserId: null,
        });
      }
      const inserted = await insertMessages(tx, newMessages);
      await touchConversationsKeepingUnread(tx, {
        at,
        list: inserted.map((m) => ({ conversationId: m.conversationId, preview: previewOf({ type: "template", text: m.text, content: m.content as MessageKindContent }) })),
      });
      writable.forEach((w, i) => {
        written.set(inserted[i].id, inserted[i]);
        ready.push({ id: w.row.id, contactId: w.contact.id, messageId: inserted[i].id, attempts: w.row.attempts });
      });
    }

    const updates = [
      ...settled.map((x) => ({ id: x.id, status: x.status, reason: x.reason, message_id: null })),
      ...ready.filter((r) => written.has(r.messageId)).map((r) => ({ id: r.id, status: null, reason: null, message_id: r.messageId })),
    ];
    if (updates.length) {
      await tx.execute(sql`update ${campaignRecipients} set
          status = coalesce(x.status, ${campaignRecipients.status}), reason = coalesce(x.reason, ${campaignRecipients.reason}),
          message_id = coalesce(x.message_id, ${campaignRecipients.messageId}), updated_at = ${at.toISOString()}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) as x(id bigint, status text, reason text, message_id text)
        where ${campaignRecipients.id} = x.id`);
    }
    // A message written for an earlier attempt is not left queued in the conversation.
    for (const reason of new Set(settled.filter((x) => x.messageId).map((x) => x.reason))) {
      const abandoned = settled.flatMap((x) => (x.messageId && x.reason === reason ? [x.messageId] : []));
      await tx
        .update(messages)
        .set({ status: "failed", error: { code: reason, message: "Not sent: the campaign skipped this customer." }, updatedAt: at })
        .where(and(inArray(messages.id, abandoned), eq(messages.status, "queued")));
    }
    ready.sort((a, b) => a.id - b.id);
    return { due: ready, written, integration };
  });
}

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

type Outcome = { recipient: Due; result: "done" | "interrupted" | { retryAt: Date } };

/**
 * The network's answers, recorded together: one transaction (a statement per step) for all the
 * answers that came while the previous one was written, instead of one per message. Resolves
 * whether the answer was recorded.
 */
function answerRecorder(ctx: SystemContext) {
  let waiting: { sent: HandedOver; done: (recorded: boolean) => void }[] = [];
  let writing = false;
  const flush = () => {
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
        flush();
      });
  };
  return (sent: HandedOver) =>
    new Promise<boolean>((resolve) => {
      waiting.push({ sent, done: resolve });
      flush();
    });
}

/** What the second's sends came to, in a statement per kind of outcome. */
async function recordOutcomes(outcomes: Outcome[]) {
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
async function sendOneSecond(ctx: SystemContext, campaign: Campaign, planned: number): Promise<"finished" | { nextTick: number; onlyRetries: boolean }> {
  const db = ctx.db;
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
        const made = await prepareShare(ctx, campaign, ids, settings.require_opt_in, new Date());
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
  const record = answerRecorder(ctx);
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
        const handed = await handOverQueuedMessage(ctx, { messageId: recipient.messageId }, { attempt: recipient.attempts + 1, loaded: { message: written.get(recipient.messageId), integration } });
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
export function runCampaignDispatch(ctx: SystemContext, payload: Record<string, unknown>, context: Pick<JobContext, "now">): Promise<JobOutcome> {
  // Bulk work: on the embedded database every statement of it waits until no other one is
  // waiting, so agents' sends and inbound messages go first.
  return yieldingToOthers(() => dispatch(ctx, payload, context));
}

async function dispatch(ctx: SystemContext, payload: Record<string, unknown>, { now }: Pick<JobContext, "now">): Promise<JobOutcome> {
  const campaignId = typeof payload.campaignId === "string" ? payload.campaignId : undefined;
  if (!campaignId) return { failed: "campaign.dispatch needs a campaignId" };
  const db = ctx.db;
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
    const outcome = await sendOneSecond(ctx, campaign, planned);
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
