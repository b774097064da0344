import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { type Conversation, conversations, slaOutcomes, slaPolicies, teamMembers, users, workflowSettings } from "@/db/schema";
import { DEFAULT_AWAY_AFTER_S } from "@/lib/auth/user-identity";
import { newId } from "@/lib/platform/ids";
import { queryRows } from "@/lib/reports/store/query";
import { slaOutcomeCounts } from "@/lib/reports/store/rollups";

// The reads and writes of SLA policies, the clocks they run on conversations, and their outcomes.

/** Whether the account has this SLA policy: its id, or undefined. */
export async function findSlaPolicyId(executor: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await executor.select({ id: slaPolicies.id }).from(slaPolicies).where(and(eq(slaPolicies.accountId, accountId), eq(slaPolicies.id, id))).limit(1);
  return row;
}

/** The account's SLA policy, or undefined; with `lock`, locked until the transaction ends. */
export async function findSlaPolicy(executor: Executor, { accountId, id, lock = false }: { accountId: string; id: string; lock?: boolean }) {
  const query = executor
    .select()
    .from(slaPolicies)
    .where(and(eq(slaPolicies.accountId, accountId), eq(slaPolicies.id, id)))
    .limit(1);
  const [row] = lock ? await query.for("update") : await query;
  return row;
}

/** The account's SLA policies, for a keyset page. */
export function selectSlaPolicies(executor: Executor) {
  return executor.select().from(slaPolicies).$dynamic();
}

export async function insertSlaPolicy(tx: Executor, values: typeof slaPolicies.$inferInsert) {
  const [row] = await tx.insert(slaPolicies).values(values).returning();
  return row;
}

/** Changes these columns of a policy (found by the caller) and returns it. */
export async function updateSlaPolicyRow(tx: Executor, { id, set }: { id: string; set: Partial<typeof slaPolicies.$inferInsert> }) {
  const [row] = await tx.update(slaPolicies).set(set).where(eq(slaPolicies.id, id)).returning();
  return row;
}

export async function deleteSlaPolicyRow(tx: Executor, { id }: { id: string }) {
  await tx.delete(slaPolicies).where(eq(slaPolicies.id, id));
}

/** The id of the account's default SLA policy, or null. */
export async function findDefaultSlaPolicyId(executor: Executor, { accountId }: { accountId: string }) {
  const [row] = await executor.select({ id: workflowSettings.defaultSlaPolicyId }).from(workflowSettings).where(eq(workflowSettings.accountId, accountId)).limit(1);
  return row?.id ?? null;
}

/** Makes `policyId` the account's default SLA policy (null: none), creating its workflow settings when new. */
export async function setDefaultSlaPolicyId(tx: Executor, { accountId, policyId }: { accountId: string; policyId: string | null }) {
  const now = new Date();
  await tx
    .insert(workflowSettings)
    .values({ accountId, awayAfterS: DEFAULT_AWAY_AFTER_S, defaultSlaPolicyId: policyId, updatedAt: now })
    .onConflictDoUpdate({ target: workflowSettings.accountId, set: { defaultSlaPolicyId: policyId, updatedAt: now } });
}

/** The account's conversations under this policy lose it and their clocks. */
export async function detachSlaPolicyFromConversations(tx: Executor, { accountId, slaPolicyId }: { accountId: string; slaPolicyId: string }) {
  await tx
    .update(conversations)
    .set({ slaPolicyId: null, slaKind: null, slaStartedAt: null, slaDueAt: null, slaWarnAt: null, slaStatus: null })
    .where(and(eq(conversations.accountId, accountId), eq(conversations.slaPolicyId, slaPolicyId)));
}

/** Records a met or breached target of the conversation's running clock. */
export async function insertSlaOutcome(
  tx: Executor,
  { conversation, kind, slaPolicyId, outcome, userId, at }: { conversation: Conversation; kind: NonNullable<Conversation["slaKind"]>; slaPolicyId: string; outcome: "met" | "breached"; userId: string | null; at: Date },
) {
  await tx.insert(slaOutcomes).values({
    id: newId("slaOutcome", at),
    accountId: conversation.accountId,
    conversationId: conversation.id,
    slaPolicyId,
    kind,
    outcome,
    userId,
    createdAt: at,
  });
}

/**
 * The assignee, or while nobody is assigned every live admin and, with `teamId`, the team's
 * live members: ids in order.
 */
export async function findSlaAlertUserIds(db: Executor, { accountId, teamId }: { accountId: string; teamId: string | null }) {
  const members = teamId
    ? inArray(
        users.id,
        db
          .select({ id: teamMembers.userId })
          .from(teamMembers)
          .where(and(eq(teamMembers.accountId, accountId), eq(teamMembers.teamId, teamId))),
      )
    : undefined;
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.accountId, accountId), isNull(users.deletedAt), or(eq(users.role, "admin"), members)))
    .orderBy(users.id);
  return rows.map((r) => r.id);
}

type OutcomeSums = { id: string | null; name: string | null; met: number | string; breached: number | string };

/** Met and breached targets recorded in [from, to), per policy (with its name) and per person (with theirs). */
export async function sumSlaOutcomes(db: Executor, range: { accountId: string; from: string; to: string }) {
  const counts = slaOutcomeCounts(range);
  const policies = await queryRows<OutcomeSums & { id: string }>(db, sql`
    select o.sla_policy_id as id, p.name, sum(o.met)::int as met, sum(o.breached)::int as breached
    from ${counts} o left join sla_policies p on p.id = o.sla_policy_id
    group by o.sla_policy_id, p.name
    having sum(o.met) + sum(o.breached) > 0
    order by p.name nulls last, o.sla_policy_id`);
  const agents = await queryRows<OutcomeSums>(db, sql`
    select o.user_id as id, u.name, sum(o.met)::int as met, sum(o.breached)::int as breached
    from ${counts} o left join users u on u.id = o.user_id
    group by o.user_id, u.name
    having sum(o.met) + sum(o.breached) > 0
    order by u.name nulls last, o.user_id`);
  return { policies, agents };
}
