import { z } from "zod";
import type { Executor } from "@/db";
import type { SystemContext, VerbContext } from "@/lib/auth/context";
import type { Conversation, SlaPolicy } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { recordActivity } from "@/lib/activity/record-activity";
import type { ActivityActor, ActivityVia } from "@/lib/activity/schemas";
import { recordEvent } from "@/lib/events/record-event";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { invalidField } from "@/lib/platform/errors";
import { loadBusinessProfile } from "@/lib/profile/business-profile";
import { presentConversation, presentSlaState } from "@/lib/conversations/schemas";
import { findConversation, lockAccountConversationRow, updateConversationRow } from "@/lib/conversations/store";
import { hasPersonReplied } from "@/lib/messages/store";
import { insertConversationNotifications } from "@/lib/notifications/store";
import { addClockSeconds } from "./clock";
import { slaAlertRecipients } from "./recipients";
import type { SlaKind } from "./schemas";
import { findSlaPolicy, insertSlaOutcome } from "./store";
import { defineJob, type PayloadOf } from "@/lib/jobs/define";

/** The share of a target's time after which it is in `warning`. */
const WARNING_SHARE = 0.8;

type Target = { kind: SlaKind; startedAt: Date; seconds: number };

/**
 * The target whose clock runs now: a person's answer while the customer waits (the first
 * answer, or the next one after a person already answered), else the resolution.
 */
async function currentTarget(tx: Executor, conversation: Conversation, policy: SlaPolicy): Promise<Target | null> {
  if (conversation.status === "closed") return null;
  if (conversation.awaitingReplySince) {
    const replied = await hasPersonReplied(tx, { conversationId: conversation.id });
    if (!replied && policy.firstResponseS) return { kind: "first_response", startedAt: conversation.awaitingReplySince, seconds: policy.firstResponseS };
    if (replied && policy.nextResponseS) return { kind: "next_response", startedAt: conversation.awaitingReplySince, seconds: policy.nextResponseS };
  }
  if (policy.resolutionS) return { kind: "resolution", startedAt: conversation.openedAt ?? conversation.createdAt, seconds: policy.resolutionS };
  return null;
}

async function clockHours(tx: Executor, accountId: string, policy: SlaPolicy) {
  return policy.businessHoursOnly ? ((await loadBusinessProfile(tx, accountId)).hours ?? null) : null;
}

/**
 * Sets the conversation's running SLA clock from its policy and state, and schedules the
 * due-time checks (at the warning and at the due time) through the job runner. A clock
 * already past its time is checked at once.
 */
async function restartClock(tx: Executor, { accountId, conversation, policy }: { accountId: string; conversation: Conversation; policy: SlaPolicy }) {
  const target = await currentTarget(tx, conversation, policy);
  if (!target) {
    return updateConversationRow(tx, { id: conversation.id, set: { slaPolicyId: policy.id, slaKind: null, slaStartedAt: null, slaDueAt: null, slaWarnAt: null, slaStatus: "met" } });
  }
  // The same target from the same start is the clock already running (warned or breached as it is).
  if (conversation.slaPolicyId === policy.id && conversation.slaKind === target.kind && conversation.slaStartedAt?.getTime() === target.startedAt.getTime()) return conversation;
  const hours = await clockHours(tx, accountId, policy);
  const dueAt = addClockSeconds({ from: target.startedAt, seconds: target.seconds, hours });
  const warnAt = addClockSeconds({ from: target.startedAt, seconds: Math.floor(target.seconds * WARNING_SHARE), hours });
  const row = await updateConversationRow(tx, { id: conversation.id, set: { slaPolicyId: policy.id, slaKind: target.kind, slaStartedAt: target.startedAt, slaDueAt: dueAt, slaWarnAt: warnAt, slaStatus: "ok" } });
  const payload = { accountId, conversationId: conversation.id };
  await enqueueJob(tx, { kind: "sla.check", accountId, payload, runAt: warnAt });
  await enqueueJob(tx, { kind: "sla.check", accountId, payload, runAt: dueAt });
  return row;
}

const findPolicy = (executor: Executor, accountId: string, id: string) => findSlaPolicy(executor, { accountId, id });

/** The account's conversation row, locked until the transaction ends. */
const lockConversation = (tx: Executor, accountId: string, id: string) => lockAccountConversationRow(tx, { accountId, id });

/**
 * Applies an SLA policy to a conversation (null removes it) and starts its clock: the first
 * answer's clock counts from when the customer started waiting. An unknown policy is a 400 on
 * `sla_policy_id`. For the API, the inbox and automations (`apply_sla`), in the caller's transaction.
 */
export async function applySla(
  tx: Executor,
  { ctx, conversationId, slaPolicyId, actor = { type: "automation" }, via }: { ctx: ServiceContext; conversationId: string; slaPolicyId: string | null; actor?: ActivityActor; via?: ActivityVia },
) {
  const policy = slaPolicyId ? await findPolicy(tx, ctx.accountId, slaPolicyId) : null;
  if (slaPolicyId && !policy) throw invalidField("sla_policy_id", "is not an SLA policy of this account");
  const current = await lockConversation(tx, ctx.accountId, conversationId);
  if (!current) return null;
  if ((current.slaPolicyId ?? null) === (slaPolicyId ?? null)) return current;
  const row = policy
    ? await restartClock(tx, { accountId: ctx.accountId, conversation: current, policy })
    : await updateConversationRow(tx, { id: current.id, set: { slaPolicyId: null, slaKind: null, slaStartedAt: null, slaDueAt: null, slaWarnAt: null, slaStatus: null } });
  await recordActivity(tx, {
    accountId: ctx.accountId,
    conversationId,
    type: "sla_applied",
    actor,
    data: { sla_policy: policy ? { id: policy.id, name: policy.name } : null, ...via },
  });
  return row;
}

async function recordOutcome(tx: Executor, { conversation, outcome, userId, at }: { conversation: Conversation; outcome: "met" | "breached"; userId: string | null; at: Date }) {
  if (!conversation.slaPolicyId || !conversation.slaKind) return;
  await insertSlaOutcome(tx, { conversation, kind: conversation.slaKind, slaPolicyId: conversation.slaPolicyId, outcome, userId, at });
}

/**
 * A customer's message: they wait for an answer from now (unless they already did), and the
 * clock of a person's answer starts. A new conversation gets the account's default policy.
 */
export async function slaOnCustomerMessage(tx: Executor, { accountId, conversationId, at, defaultPolicyId }: { accountId: string; conversationId: string; at: Date; defaultPolicyId: string | null }) {
  const current = await lockConversation(tx, accountId, conversationId);
  if (!current || current.status === "closed") return;
  const waiting = current.awaitingReplySince ? current : await updateConversationRow(tx, { id: current.id, set: { awaitingReplySince: at } });
  const isNew = current.createdAt.getTime() === at.getTime();
  const policyId = current.slaPolicyId ?? (isNew ? defaultPolicyId : null);
  if (!policyId) return;
  const policy = await findPolicy(tx, accountId, policyId);
  if (!policy) return;
  // A running answer clock keeps its start; otherwise the wait for an answer begins.
  if (current.slaPolicyId && (current.slaKind === "first_response" || current.slaKind === "next_response")) return;
  await restartClock(tx, { accountId, conversation: waiting, policy });
}

/** A person answered: an answer clock still running is met (by them), and the next clock starts. */
export async function slaOnPersonReply(ctx: Pick<VerbContext, "accountId" | "db">, { conversationId, userId, at }: { conversationId: string; userId: string; at: Date }) {
  const { accountId, db: tx } = ctx;
  const current = await lockConversation(tx, accountId, conversationId);
  if (!current?.awaitingReplySince) return;
  const answered = await updateConversationRow(tx, { id: current.id, set: { awaitingReplySince: null } });
  if (!current.slaPolicyId) return;
  const answering = current.slaKind === "first_response" || current.slaKind === "next_response";
  if (answering && (current.slaStatus === "ok" || current.slaStatus === "warning")) await recordOutcome(tx, { conversation: current, outcome: "met", userId, at });
  const policy = await findPolicy(tx, accountId, current.slaPolicyId);
  if (policy && answering) await restartClock(tx, { accountId, conversation: answered, policy });
}

/** A close meets the resolution target when it is still running; no clock runs while closed. */
export async function slaOnClose(tx: Executor, { accountId, conversationId, at }: { accountId: string; conversationId: string; at: Date }) {
  const current = await lockConversation(tx, accountId, conversationId);
  if (!current?.slaPolicyId) return;
  if (current.slaKind === "resolution" && (current.slaStatus === "ok" || current.slaStatus === "warning")) {
    await recordOutcome(tx, { conversation: current, outcome: "met", userId: current.assignedTo, at });
  }
  await updateConversationRow(tx, { id: current.id, set: { slaKind: null, slaStartedAt: null, slaDueAt: null, slaWarnAt: null, slaStatus: "met", awaitingReplySince: null } });
}

const kindWords: Record<SlaKind, string> = { first_response: "First response", next_response: "Next response", resolution: "Resolution" };

async function alert(ctx: SystemContext, { conversation, type, now }: { conversation: Conversation; type: "sla.warning" | "sla.breached"; now: Date }) {
  const tx = ctx.db;
  const full = await findConversation(tx, { accountId: conversation.accountId, id: conversation.id });
  await recordEvent(ctx, {
    accountId: conversation.accountId,
    type,
    data: { conversation: presentConversation(full), sla: presentSlaState(conversation) },
  });
  const recipients = await slaAlertRecipients(tx, { accountId: conversation.accountId, assigneeId: conversation.assignedTo, teamId: conversation.teamId });
  const kind = conversation.slaKind ? kindWords[conversation.slaKind] : "SLA";
  const message = type === "sla.warning" ? `${kind} due soon (80 % of the time has passed)` : `${kind} target missed`;
  if (recipients.length) {
    await insertConversationNotifications(tx, {
      accountId: conversation.accountId,
      conversationId: conversation.id,
      type: type === "sla.warning" ? "sla_warning" : "sla_breached",
      message,
      userIds: recipients,
      at: now,
    });
  }
}

const checkPayload = z.object({ accountId: z.string().min(1), conversationId: z.string().min(1) });

/**
 * The `sla.check` job: the running clock's warning (80 %) and breach, each once. A check left
 * over from an earlier clock (answered, closed, moved) finds nothing due and does nothing.
 */
async function runSlaCheck(ctx: SystemContext, { accountId, conversationId }: z.output<typeof checkPayload>, { now }: { now: Date }) {
  await ctx.db.transaction(async (tx) => {
    const current = await lockConversation(tx, accountId, conversationId);
    if (!current?.slaKind || !current.slaDueAt || !current.slaWarnAt) return;
    let row = current;
    if (row.slaStatus === "ok" && current.slaWarnAt.getTime() <= now.getTime() && current.slaDueAt.getTime() > now.getTime()) {
      row = await updateConversationRow(tx, { id: row.id, set: { slaStatus: "warning" } });
      await alert({ ...ctx, db: tx }, { conversation: row, type: "sla.warning", now });
    }
    if ((row.slaStatus === "ok" || row.slaStatus === "warning") && current.slaDueAt.getTime() <= now.getTime()) {
      row = await updateConversationRow(tx, { id: row.id, set: { slaStatus: "breached" } });
      await recordOutcome(tx, { conversation: row, outcome: "breached", userId: row.assignedTo, at: now });
      await alert({ ...ctx, db: tx }, { conversation: row, type: "sla.breached", now });
    }
  });
}

export const slaCheckJob = defineJob({ kind: "sla.check", schema: checkPayload, handler: (payload, job) => runSlaCheck(job.system, payload, job) });

declare module "@/lib/jobs/define" {
  interface JobPayloads {
    "sla.check": PayloadOf<typeof slaCheckJob>;
  }
}
