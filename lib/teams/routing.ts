import type { Executor } from "@/db";
import type { ServiceContext, SystemContext } from "@/lib/auth/context";
import { recordActivity } from "@/lib/activity/record-activity";
import { type ActivityActor, type ActivityVia, userActor } from "@/lib/activity/schemas";
import { invalidField } from "@/lib/platform/errors";
import { type Priority, presentConversation, type UpdateConversationInput } from "@/lib/conversations/schemas";
import { findConversation, updateConversationRow } from "@/lib/conversations/store";
import { slaOnCustomerMessage } from "@/lib/sla/sla";
import { assignByPolicy, loadWorkflowSettings } from "./assignment";
import { findTeam } from "./store";

/**
 * Sets the conversation's priority (null removes it), recorded in the activity trail. For the
 * API, the inbox and automations (`set_priority`), in the caller's transaction; the caller holds
 * or takes the conversation's lock.
 */
export async function setPriority(
  tx: Executor,
  { ctx, conversationId, priority, actor = { type: "automation" }, via }: { ctx: ServiceContext; conversationId: string; priority: Priority | null; actor?: ActivityActor; via?: ActivityVia },
) {
  const current = await findConversation(tx, { accountId: ctx.accountId, id: conversationId, lock: true });
  if ((current.priority ?? null) === priority) return current;
  const now = new Date();
  await updateConversationRow(tx, { id: current.id, set: { priority, updatedAt: now } });
  await recordActivity(tx, { accountId: ctx.accountId, conversationId, type: "priority_changed", actor, data: { priority, ...via }, at: now });
  return findConversation(tx, { accountId: ctx.accountId, id: conversationId });
}

/**
 * Moves the conversation to a team (null: to none). An unknown team is a 400 on `team_id` and
 * nothing changes. An unassigned open conversation is then offered to the team's policy. For
 * the API, the inbox and automations (`assign_team`), in the caller's transaction.
 */
export async function assignTeam(
  tx: Executor,
  { ctx, conversationId, teamId, actor = { type: "automation" }, via }: { ctx: ServiceContext; conversationId: string; teamId: string | null; actor?: ActivityActor; via?: ActivityVia },
) {
  const found = teamId ? await findTeam(tx, { accountId: ctx.accountId, id: teamId }) : undefined;
  const team = found ? { id: found.id, name: found.name } : undefined;
  if (teamId && !team) throw invalidField("team_id", "is not a team of this account");
  const current = await findConversation(tx, { accountId: ctx.accountId, id: conversationId, lock: true });
  if ((current.teamId ?? null) === teamId) return current;
  const now = new Date();
  await updateConversationRow(tx, { id: current.id, set: { teamId, updatedAt: now } });
  await recordActivity(tx, { accountId: ctx.accountId, conversationId, type: "team_changed", actor, data: { team: team ?? null, ...via }, at: now });
  if (teamId && current.status === "open" && !current.assignedTo) await assignByPolicy(tx, { ctx, conversationId, now });
  return findConversation(tx, { accountId: ctx.accountId, id: conversationId });
}

/** `PATCH /v1/conversations/{id}`: priority and team together, or nothing. */
export async function updateConversation({ ctx, id, input }: { ctx: ServiceContext<"user">; id: string; input: UpdateConversationInput }) {
  return ctx.db.transaction(async (tx) => {
    const actor = userActor(ctx.user);
    await findConversation(tx, { accountId: ctx.accountId, id, lock: true });
    if (input.team_id !== undefined) await assignTeam(tx, { ctx, conversationId: id, teamId: input.team_id, actor });
    if (input.priority !== undefined) await setPriority(tx, { ctx, conversationId: id, priority: input.priority, actor });
    return presentConversation(await findConversation(tx, { accountId: ctx.accountId, id }));
  });
}

/**
 * What a customer's message sets going, in its transaction: the SLA clock of a person's answer
 * (a new conversation gets the default policy), then the assignment policy for an unassigned
 * open conversation (or the queue when nobody can take it).
 */
export async function workflowOnCustomerMessage(ctx: SystemContext, { accountId, conversationId, at }: { accountId: string; conversationId: string; at: Date }) {
  const tx = ctx.db;
  const settings = await loadWorkflowSettings(tx, accountId);
  await slaOnCustomerMessage(tx, { accountId, conversationId, at, defaultPolicyId: settings.defaultSlaPolicyId });
  await assignByPolicy(tx, { ctx: { ...ctx, accountId }, conversationId, now: at });
}
