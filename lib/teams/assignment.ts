import type { Executor } from "@/db";
import type { SystemContext } from "@/lib/auth/context";
import type { AssignmentPolicy } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";

import { auditChange } from "@/lib/audit/record-audit";
import { recordActivity } from "@/lib/activity/record-activity";
import { recordEvent } from "@/lib/events/record-event";
import { DEFAULT_AWAY_AFTER_S, presentUserRef } from "@/lib/auth/user-identity";
import { invalidField } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { presentAssignment } from "@/lib/conversations/schemas";
import type { AssignmentConfigInput, AssignmentConfigOutput } from "./assignment-schemas";
import {
  type Candidate,
  countOpenAssignments,
  deleteAssignmentPolicy,
  findAssignmentPolicy,
  findOnlineCandidates,
  findTeamId,
  findWorkflowSettings,
  hasAutomaticPolicy,
  insertAssignmentPolicy,
  lockAssignments,
  lockConversationForAssignment,
  lockWaitingConversations,
  updateAssignmentPolicy,
  upsertWorkflowSettings,
} from "./store";
import { findLiveUserIds } from "@/lib/users/store";
import { assignIfWaiting } from "@/lib/conversations/store";

const saveWorkflowSettings = (tx: Executor, accountId: string, values: { awayAfterS?: number; defaultSlaPolicyId?: string | null }) =>
  upsertWorkflowSettings(tx, { accountId, values, defaults: { awayAfterS: DEFAULT_AWAY_AFTER_S } });
const policyRow = (executor: Executor, accountId: string, teamId: string | null) => findAssignmentPolicy(executor, { accountId, teamId });

/** The account's team-workflow settings, or the defaults. */
export async function loadWorkflowSettings(executor: Executor, accountId: string) {
  const row = await findWorkflowSettings(executor, { accountId });
  return { awayAfterS: row?.awayAfterS ?? DEFAULT_AWAY_AFTER_S, defaultSlaPolicyId: row?.defaultSlaPolicyId ?? null };
}

function presentConfig(row: AssignmentPolicy | undefined, { teamId, inherited, awayAfterS }: { teamId: string | null; inherited: boolean; awayAfterS: number }): AssignmentConfigOutput {
  return {
    team_id: teamId,
    inherited,
    mode: row?.mode ?? "manual",
    capacity: row?.capacity ?? null,
    agent_capacities: row?.agentCapacities ?? {},
    away_after_s: awayAfterS,
  };
}

async function assertTeam(executor: Executor, accountId: string, teamId: string, path: string) {
  if (!(await findTeamId(executor, { accountId, id: teamId }))) throw invalidField(path, "is not a team of this account");
}

/** The policy of the account, or of a team (its own, else the account's it inherits). */
export async function getAssignmentConfig({ ctx, teamId }: { ctx: ServiceContext; teamId?: string }) {
  const executor = ctx.db;
  if (teamId) await assertTeam(executor, ctx.accountId, teamId, "team_id");
  const { awayAfterS } = await loadWorkflowSettings(executor, ctx.accountId);
  const own = teamId ? await policyRow(executor, ctx.accountId, teamId) : undefined;
  const row = own ?? (await policyRow(executor, ctx.accountId, null));
  return presentConfig(row, { teamId: teamId ?? null, inherited: Boolean(teamId) && !own, awayAfterS });
}

/**
 * Replaces the account's (or a team's) policy. Unknown teams and people are a 400 and nothing
 * changes; a policy that can give work now (capacity raised, a mode switched on) hands out
 * the waiting conversations in the same transaction.
 */
export async function updateAssignmentConfig({ ctx, input }: { ctx: ServiceContext; input: AssignmentConfigInput }) {
  return ctx.db.transaction(async (tx) => {
    const teamId = input.team_id ?? null;
    if (teamId) await assertTeam(tx, ctx.accountId, teamId, "team_id");
    const people = Object.keys(input.agent_capacities);
    if (people.length) {
      const known = new Set(await findLiveUserIds(tx, { accountId: ctx.accountId, ids: people }));
      const unknown = people.find((id) => !known.has(id));
      if (unknown) throw invalidField(`agent_capacities.${unknown}`, "is not a user of this account");
    }
    const now = new Date();
    const current = await policyRow(tx, ctx.accountId, teamId);
    if (input.mode === "inherit") {
      if (current) await deleteAssignmentPolicy(tx, { id: current.id });
    } else if (current) {
      await updateAssignmentPolicy(tx, { id: current.id, set: { mode: input.mode, capacity: input.capacity, agentCapacities: input.agent_capacities, updatedAt: now } });
    } else {
      await insertAssignmentPolicy(tx, {
        id: newId("assignmentPolicy", now),
        accountId: ctx.accountId,
        teamId,
        mode: input.mode,
        capacity: input.capacity,
        agentCapacities: input.agent_capacities,
        updatedAt: now,
      });
    }
    if (input.away_after_s !== undefined) await saveWorkflowSettings(tx, ctx.accountId, { awayAfterS: input.away_after_s });
    await auditChange(ctx, "settings.assignment_updated", teamId ? { type: "team", id: teamId } : null, tx);
    await drainAssignmentQueue({ ...ctx, db: tx }, { accountId: ctx.accountId, now });
    return getAssignmentConfig({ ctx: { ...ctx, db: tx }, teamId: teamId ?? undefined });
  });
}

/**
 * Picks who gets the next conversation under `policy`: among the candidates under their
 * capacity, round robin takes the one after the last person served (by id, cyclically),
 * balanced the one with the fewest open conversations (ties in the round-robin order).
 */
function pick(policy: AssignmentPolicy, candidates: Candidate[], loads: Map<string, number>) {
  const capacityOf = (id: string) => policy.agentCapacities[id] ?? policy.capacity ?? Number.POSITIVE_INFINITY;
  const free = candidates.filter((c) => (loads.get(c.id) ?? 0) < capacityOf(c.id));
  if (free.length === 0) return null;
  const last = policy.lastAssignedUserId;
  const turn = last ? [...free.filter((c) => c.id > last), ...free.filter((c) => c.id <= last)] : free;
  if (policy.mode === "round_robin") return turn[0];
  return turn.reduce((best, c) => ((loads.get(c.id) ?? 0) < (loads.get(best.id) ?? 0) ? c : best), turn[0]);
}

async function tryAssign(ctx: SystemContext, { accountId, conversation, now, awayAfterS }: { accountId: string; conversation: { id: string; teamId: string | null }; now: Date; awayAfterS: number }) {
  const tx = ctx.db;
  const own = conversation.teamId ? await policyRow(tx, accountId, conversation.teamId) : undefined;
  const policy = own ?? (await policyRow(tx, accountId, null));
  if (!policy || policy.mode === "manual") return null;
  const candidates = await findOnlineCandidates(tx, { accountId, teamId: conversation.teamId, awayAfterS, now });
  const chosen = pick(policy, candidates, await countOpenAssignments(tx, { accountId, userIds: candidates.map((c) => c.id) }));
  if (!chosen) return null;
  const row = await assignIfWaiting(tx, { accountId, id: conversation.id, userId: chosen.id, at: now });
  if (!row) return null;
  await updateAssignmentPolicy(tx, { id: policy.id, set: { lastAssignedUserId: chosen.id } });
  await recordEvent(ctx, { accountId, type: "conversation.assigned", data: { conversation: presentAssignment(row), user: presentUserRef(chosen) } });
  await recordActivity(tx, {
    accountId,
    conversationId: row.id,
    type: "assigned",
    actor: { type: "automation" },
    data: { assignee: { id: chosen.id, name: chosen.name }, policy: policy.mode },
    at: now,
  });
  return row;
}

/**
 * Assigns an open, unassigned conversation by the policy of its team (else the account's):
 * to an online person under their capacity, recorded with actor `automation`. When nobody can
 * take it, it stays unassigned and waits its turn (oldest first) in the queue. Returns the
 * updated conversation, or null when it was not assigned.
 */
export async function assignByPolicy(tx: Executor, { ctx, conversationId, now = new Date() }: { ctx: ServiceContext; conversationId: string; now?: Date }) {
  const conversation = await lockConversationForAssignment(tx, { accountId: ctx.accountId, id: conversationId });
  if (!conversation || conversation.status !== "open" || conversation.assignedTo) return null;
  if (!(await hasAutomaticPolicy(tx, { accountId: ctx.accountId }))) return null;
  await lockAssignments(tx, { accountId: ctx.accountId });
  const { awayAfterS } = await loadWorkflowSettings(tx, ctx.accountId);
  return tryAssign({ ...ctx, db: tx }, { accountId: ctx.accountId, conversation, now, awayAfterS });
}

/** How many waiting conversations one pass of the queue looks at. */
const QUEUE_PASS = 200;

/**
 * Hands out waiting conversations (open, unassigned), oldest first, while someone can take
 * them: after a person goes online, a conversation closes, a capacity is raised. Rows another
 * transaction holds are skipped (SKIP LOCKED): that transaction is deciding about them.
 */
export async function drainAssignmentQueue(ctx: SystemContext, { accountId, now = new Date() }: { accountId: string; now?: Date }) {
  const tx = ctx.db;
  if (!(await hasAutomaticPolicy(tx, { accountId }))) return 0;
  await lockAssignments(tx, { accountId });
  const { awayAfterS } = await loadWorkflowSettings(tx, accountId);
  const waiting = await lockWaitingConversations(tx, { accountId, limit: QUEUE_PASS });
  let assigned = 0;
  for (const conversation of waiting) {
    if (await tryAssign(ctx, { accountId, conversation, now, awayAfterS })) assigned++;
  }
  return assigned;
}
