import { type Executor, toDate } from "@/db";
import { type Campaign, type CampaignCost, campaigns } from "@/db/schema";
import { auditChange } from "@/lib/audit/record-audit";
import type { ServiceContext } from "@/lib/auth/context";
import { enqueueJob, retireWaitingJobs } from "@/lib/jobs/enqueue";
import type { CursorPosition } from "@/lib/platform/cursor";
import { ConflictError, invalidField, NotFoundError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { failQueuedMessages } from "@/lib/messages/store";
import { keysetPage } from "@/lib/platform/keyset-page";
import { checkAudience, checkTemplate, estimateAudienceCost, summarizeAudience, templateCategory } from "./audience";
import type { CampaignOutput, CreateCampaignInput, RecipientStatus, UpdateCampaignInput } from "./schemas";
import { loadCampaignSettings } from "./settings";
import {
  countRecipientsByStatus,
  deleteCampaignRow,
  findAccountCampaign,
  insertCampaign,
  raiseDispatchGeneration,
  selectCampaigns,
  selectRecipients,
  skipPendingRecipients,
  updateCampaignRow,
  updateUnstartedCampaign,
} from "./store/campaigns";

type Counts = CampaignOutput["counts"];
const zeroCounts = (): Counts => ({ recipients: 0, queued: 0, sent: 0, delivered: 0, read: 0, replied: 0, failed: 0, skipped: 0 });

/** The counts of campaigns that started, from their recipients (one statement for the list). */
async function countRecipients(db: Executor, ids: string[]): Promise<Map<string, Counts>> {
  const result = new Map<string, Counts>();
  if (!ids.length) return result;
  const rows = await countRecipientsByStatus(db, ids);
  for (const row of rows) {
    const counts = zeroCounts();
    for (const key of Object.keys(counts) as (keyof Counts)[]) counts[key] = Number(row[key] ?? 0);
    result.set(String(row.campaign_id), counts);
  }
  return result;
}

const started = (row: Campaign) => row.startedAt !== null;

/** Campaigns as the API shows them: a draft's counts and cost are its audience now; a started one's, its recipients. */
async function present(db: Executor, rows: Campaign[]): Promise<CampaignOutput[]> {
  const counted = await countRecipients(db, rows.filter(started).map((r) => r.id));
  const settings = rows.some((r) => !started(r)) ? await loadCampaignSettings(db, rows[0].accountId) : null;
  const out: CampaignOutput[] = [];
  for (const row of rows) {
    let counts = counted.get(row.id) ?? zeroCounts();
    let cost: CampaignCost | null = row.estimatedCost ?? null;
    if (!started(row) && row.status !== "cancelled") {
      const summary = await summarizeAudience(db, { accountId: row.accountId, audience: row.audience, requireOptIn: settings!.require_opt_in });
      counts = { ...zeroCounts(), recipients: summary.count, queued: summary.eligible, skipped: summary.count - summary.eligible };
      const category = await templateCategory(db, row.accountId, row.template);
      cost = category ? await estimateAudienceCost(db, { accountId: row.accountId, audience: row.audience, requireOptIn: settings!.require_opt_in, category }) : null;
    }
    out.push({
      id: row.id,
      name: row.name,
      template: row.template,
      audience: row.audience,
      send_at: row.sendAt?.toISOString() ?? row.startedAt?.toISOString() ?? null,
      status: row.status,
      counts,
      estimated_cost: cost,
      created_at: row.createdAt.toISOString(),
    });
  }
  return out;
}

async function findCampaign(db: Executor, { accountId, id, lock = false }: { accountId: string; id: string; lock?: boolean }) {
  const row = await findAccountCampaign(db, { accountId, id, lock });
  if (!row) throw new NotFoundError("Campaign");
  return row;
}

/** Newest first. */
export async function listCampaigns({ ctx, limit, cursor }: { ctx: ServiceContext; limit: number; cursor?: CursorPosition }) {
  const db = ctx.db;
  const page = await keysetPage(selectCampaigns(db), {
    table: campaigns,
    accountId: ctx.accountId,
    order: "desc",
    limit,
    cursor,
    position: (c) => ({ t: c.createdAt, id: c.id }),
    present: (c) => c,
  });
  return { ...page, data: await present(db, page.data) };
}

export async function getCampaign({ ctx, id }: { ctx: ServiceContext; id: string }) {
  const db = ctx.db;
  const [out] = await present(db, [await findCampaign(db, { accountId: ctx.accountId, id })]);
  return out;
}

/** A new draft: the template must be approved, the audience's labels and contacts the account's. */
export async function createCampaign({ ctx, input }: { ctx: ServiceContext<"user">; input: CreateCampaignInput }) {
  const db = ctx.db;
  await checkTemplate(db, ctx.accountId, input.template);
  await checkAudience(db, ctx.accountId, input.audience);
  const now = new Date();
  const row = await insertCampaign(db, {
      id: newId("campaign", now),
      accountId: ctx.accountId,
      name: input.name,
      template: input.template,
      audience: input.audience,
      status: "draft",
      createdBy: ctx.user.id,
      createdAt: now,
    updatedAt: now,
  });
  await auditChange(ctx, "campaign.created", { type: "campaign", id: row.id });
  return (await present(db, [row]))[0];
}

const refuse = (row: Campaign, verb: string) => new ConflictError(`A ${row.status} campaign cannot be ${verb}.`, "invalid_transition");

/** Only a draft or a scheduled campaign changes; what it names is checked as on creation. */
export async function updateCampaign({ ctx, id, input }: { ctx: ServiceContext; id: string; input: UpdateCampaignInput }) {
  const db = ctx.db;
  const current = await findCampaign(db, { accountId: ctx.accountId, id });
  if (current.status !== "draft" && current.status !== "scheduled") throw refuse(current, "changed");
  if (input.template) await checkTemplate(db, ctx.accountId, input.template);
  if (input.audience) await checkAudience(db, ctx.accountId, input.audience);
  const row = await updateUnstartedCampaign(db, {
    id,
    set: { ...(input.name ? { name: input.name } : {}), ...(input.template ? { template: input.template } : {}), ...(input.audience ? { audience: input.audience } : {}), updatedAt: new Date() },
  });
  if (!row) throw refuse(current, "changed");
  return (await present(db, [row]))[0];
}

/** A campaign that is sending or paused must be cancelled first; its messages stay in their conversations. */
export async function deleteCampaign({ ctx, id }: { ctx: ServiceContext; id: string }) {
  await ctx.db.transaction(async (tx) => {
    const row = await findCampaign(tx, { accountId: ctx.accountId, id, lock: true });
    if (row.status === "sending" || row.status === "paused") throw refuse(row, "deleted (cancel it first)");
    await deleteCampaignRow(tx, id);
    await auditChange(ctx, "campaign.deleted", { type: "campaign", id }, tx);
  });
}

/**
 * A campaign has one pacer (its `campaign.dispatch` job) at a time, however often it is
 * rescheduled, paused and resumed: each start raises the campaign's dispatch generation, the
 * waiting job of an earlier one is retired, and one that is running stops before its next
 * recipient (it checks the generation), so the pace never doubles.
 */
async function startPacer(tx: Executor, { accountId, campaignId, runAt }: { accountId: string; campaignId: string; runAt: Date }) {
  const generation = await raiseDispatchGeneration(tx, campaignId);
  await retireWaitingJobs(tx, { kind: "campaign.dispatch", accountId, payload: { campaignId } });
  await enqueueJob(tx, { kind: "campaign.dispatch", accountId, payload: { campaignId, generation }, runAt });
}

const MAX_SCHEDULE_AHEAD_MS = 366 * 24 * 3600_000;

/**
 * Schedules a draft (or moves a scheduled campaign): `send_at` absent or past starts it now.
 * The template is checked again (it may have been disabled since the draft was written).
 */
export async function scheduleCampaign({ ctx, id, sendAt }: { ctx: ServiceContext; id: string; sendAt?: string }) {
  const db = ctx.db;
  const now = new Date();
  const at = sendAt ? new Date(sendAt) : now;
  if (at.getTime() - now.getTime() > MAX_SCHEDULE_AHEAD_MS) throw invalidField("send_at", "must be at most a year ahead");
  const row = await db.transaction(async (tx) => {
    const current = await findCampaign(tx, { accountId: ctx.accountId, id, lock: true });
    if (current.status !== "draft" && current.status !== "scheduled") throw refuse(current, "scheduled");
    await checkTemplate(tx, ctx.accountId, current.template);
    const updated = await updateCampaignRow(tx, { id, set: { status: "scheduled", sendAt: at < now ? now : at, updatedAt: now } });
    await startPacer(tx, { accountId: ctx.accountId, campaignId: id, runAt: at < now ? now : at });
    await auditChange(ctx, "campaign.scheduled", { type: "campaign", id }, tx);
    return updated;
  });
  return (await present(db, [row]))[0];
}

/** Sending → paused: no recipient is started after this commits (a send already with the network finishes). */
export async function pauseCampaign({ ctx, id }: { ctx: ServiceContext; id: string }) {
  return transition(ctx, id, ["sending"], "paused", "paused");
}

/** Paused → sending, from the first recipient not messaged yet. */
export async function resumeCampaign({ ctx, id }: { ctx: ServiceContext; id: string }) {
  return transition(ctx, id, ["paused"], "sending", "resumed", async (tx, now) => {
    await startPacer(tx, { accountId: ctx.accountId, campaignId: id, runAt: now });
  });
}

/** Stops a campaign for good: recipients not messaged yet are skipped (`cancelled`). */
export async function cancelCampaign({ ctx, id }: { ctx: ServiceContext; id: string }) {
  return transition(ctx, id, ["draft", "scheduled", "sending", "paused"], "cancelled", "cancelled", async (tx, now) => {
    const left = await skipPendingRecipients(tx, { campaignId: id, reason: "cancelled", at: now });
    // Messages already written for them (made ready, or waiting to be retried) are not left queued.
    const written = left.flatMap((r) => (r.messageId ? [r.messageId] : []));
    if (written.length) {
      await failQueuedMessages(tx, { ids: written, error: { code: "cancelled", message: "Not sent: the campaign was cancelled." }, at: now });
    }
    await auditChange(ctx, "campaign.cancelled", { type: "campaign", id }, tx);
  });
}

async function transition(
  ctx: ServiceContext,
  id: string,
  from: Campaign["status"][],
  to: Campaign["status"],
  verb: string,
  then?: (tx: Executor, now: Date) => Promise<void>,
) {
  const db = ctx.db;
  const row = await db.transaction(async (tx) => {
    const current = await findCampaign(tx, { accountId: ctx.accountId, id, lock: true });
    if (!from.includes(current.status)) throw refuse(current, verb);
    const now = new Date();
    const updated = await updateCampaignRow(tx, { id, set: { status: to, updatedAt: now, ...(to === "cancelled" ? { finishedAt: now } : {}) } });
    await then?.(tx, now);
    return updated;
  });
  return (await present(db, [row]))[0];
}

/** The campaign's recipients in the order they are sent, with each one's status and reason; `status` filters. */
export async function listRecipients({ ctx, id, limit, cursor, status }: { ctx: ServiceContext; id: string; limit: number; cursor?: string; status?: RecipientStatus }) {
  const db = ctx.db;
  await findCampaign(db, { accountId: ctx.accountId, id });
  const rows = await selectRecipients(db, { accountId: ctx.accountId, campaignId: id, limit, cursor, status });
  const more = rows.length > limit;
  const data = rows.slice(0, limit).map((r) => ({
    contact_id: r.contact_id,
    name: r.name,
    phone: r.phone,
    status: r.s,
    reason: r.reason ?? (r.s === "failed" ? r.error_code : null),
    message_id: r.message_id,
    updated_at: toDate(r.updated_at).toISOString(),
  }));
  return { data, pagination: { next_cursor: more ? String(rows[limit - 1].id) : null, has_more: more } };
}

/** The audience as it is now, for the create form. */
export async function previewAudience({ ctx, input }: { ctx: ServiceContext; input: { audience: CreateCampaignInput["audience"]; template?: { name: string; language: string } } }) {
  const db = ctx.db;
  await checkAudience(db, ctx.accountId, input.audience);
  const settings = await loadCampaignSettings(db, ctx.accountId);
  const summary = await summarizeAudience(db, { accountId: ctx.accountId, audience: input.audience, requireOptIn: settings.require_opt_in });
  const category = input.template ? await templateCategory(db, ctx.accountId, input.template) : null;
  if (input.template && !category) throw invalidField("template.name", `is not a template of this account in ${input.template.language}`);
  const estimated_cost = category ? await estimateAudienceCost(db, { accountId: ctx.accountId, audience: input.audience, requireOptIn: settings.require_opt_in, category }) : null;
  return { ...summary, estimated_cost };
}
