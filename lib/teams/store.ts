import { and, asc, count, eq, gt, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { assignmentPolicies, conversations, teamMembers, teams, users, workflowSettings } from "@/db/schema";

/** Whether the account has this team: its id, or undefined. */
export async function findTeamId(executor: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await executor.select({ id: teams.id }).from(teams).where(and(eq(teams.accountId, accountId), eq(teams.id, id))).limit(1);
  return row;
}

// Assignment

/** The account's team-workflow settings row, if saved. */
export async function findWorkflowSettings(executor: Executor, { accountId }: { accountId: string }) {
  const [row] = await executor.select().from(workflowSettings).where(eq(workflowSettings.accountId, accountId)).limit(1);
  return row;
}

/** Saves the given team-workflow settings of the account (the others keep their value, or get `defaults` on the first save). */
export async function upsertWorkflowSettings(
  tx: Executor,
  { accountId, values, defaults }: { accountId: string; values: { awayAfterS?: number; defaultSlaPolicyId?: string | null }; defaults: { awayAfterS: number } },
) {
  const now = new Date();
  await tx
    .insert(workflowSettings)
    .values({ accountId, awayAfterS: values.awayAfterS ?? defaults.awayAfterS, defaultSlaPolicyId: values.defaultSlaPolicyId ?? null, updatedAt: now })
    .onConflictDoUpdate({ target: workflowSettings.accountId, set: { ...values, updatedAt: now } });
}

/** The assignment policy of the account (`teamId` null) or of one team, if it has its own. */
export async function findAssignmentPolicy(executor: Executor, { accountId, teamId }: { accountId: string; teamId: string | null }) {
  const [row] = await executor
    .select()
    .from(assignmentPolicies)
    .where(and(eq(assignmentPolicies.accountId, accountId), teamId ? eq(assignmentPolicies.teamId, teamId) : isNull(assignmentPolicies.teamId)))
    .limit(1);
  return row;
}

export async function deleteAssignmentPolicy(tx: Executor, { id }: { id: string }) {
  await tx.delete(assignmentPolicies).where(eq(assignmentPolicies.id, id));
}

export async function updateAssignmentPolicy(tx: Executor, { id, set }: { id: string; set: Partial<typeof assignmentPolicies.$inferInsert> }) {
  await tx.update(assignmentPolicies).set(set).where(eq(assignmentPolicies.id, id));
}

export async function insertAssignmentPolicy(tx: Executor, values: typeof assignmentPolicies.$inferInsert) {
  await tx.insert(assignmentPolicies).values(values);
}

export type Candidate = { id: string; name: string; email: string; role: "admin" | "agent" };

/** Online (and not away) people who may take the conversation: the team's members, or everyone. */
export async function findOnlineCandidates(tx: Executor, { accountId, teamId, awayAfterS, now }: { accountId: string; teamId: string | null; awayAfterS: number; now: Date }): Promise<Candidate[]> {
  const activeSince = new Date(now.getTime() - awayAfterS * 1000);
  const base = tx.select({ id: users.id, name: users.name, email: users.email, role: users.role }).from(users);
  const where = and(eq(users.accountId, accountId), isNull(users.deletedAt), eq(users.availability, "online"), gt(users.lastActiveAt, activeSince));
  const rows = teamId
    ? await base.innerJoin(teamMembers, and(eq(teamMembers.userId, users.id), eq(teamMembers.teamId, teamId))).where(where).orderBy(asc(users.id))
    : await base.where(where).orderBy(asc(users.id));
  return rows;
}

/** Open (not closed) conversations assigned to each person. */
export async function countOpenAssignments(tx: Executor, { accountId, userIds }: { accountId: string; userIds: string[] }) {
  const loads = new Map<string, number>(userIds.map((id) => [id, 0]));
  if (userIds.length === 0) return loads;
  const rows = await tx
    .select({ userId: conversations.assignedTo, open: count() })
    .from(conversations)
    .where(and(eq(conversations.accountId, accountId), inArray(conversations.assignedTo, userIds), ne(conversations.status, "closed")))
    .groupBy(conversations.assignedTo);
  for (const row of rows) if (row.userId) loads.set(row.userId, Number(row.open));
  return loads;
}

/** Whether any policy of the account assigns automatically (most accounts: none, and nothing else is read). */
export async function hasAutomaticPolicy(tx: Executor, { accountId }: { accountId: string }) {
  const rows = await tx
    .select({ id: assignmentPolicies.id })
    .from(assignmentPolicies)
    .where(and(eq(assignmentPolicies.accountId, accountId), ne(assignmentPolicies.mode, "manual")))
    .limit(1);
  return rows.length > 0;
}

/** One account's automatic assignments happen one at a time: two arrivals never both take a person's last free place. */
export const lockAssignments = (tx: Executor, { accountId }: { accountId: string }) => tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`assignment:${accountId}`}))`);


/** What assignment reads of one conversation of the account, locked. */
export async function lockConversationForAssignment(tx: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await tx
    .select({ id: conversations.id, teamId: conversations.teamId, status: conversations.status, assignedTo: conversations.assignedTo })
    .from(conversations)
    .where(and(eq(conversations.accountId, accountId), eq(conversations.id, id)))
    .for("update");
  return row;
}

/** The account's waiting conversations (open, unassigned), oldest first, locked; rows another transaction holds are skipped. */
export async function lockWaitingConversations(tx: Executor, { accountId, limit }: { accountId: string; limit: number }) {
  return tx
    .select({ id: conversations.id, teamId: conversations.teamId })
    .from(conversations)
    .where(and(eq(conversations.accountId, accountId), eq(conversations.status, "open"), isNull(conversations.assignedTo)))
    .orderBy(asc(conversations.createdAt), asc(conversations.id))
    .limit(limit)
    .for("update", { skipLocked: true });
}

// Teams

export /** The member ids of each team, in one query. */
async function findTeamMembers(executor: Executor, { teamIds }: { teamIds: string[] }) {
  const byTeam = new Map<string, string[]>(teamIds.map((id) => [id, []]));
  if (teamIds.length === 0) return byTeam;
  const rows = await executor.select({ teamId: teamMembers.teamId, userId: teamMembers.userId }).from(teamMembers).where(inArray(teamMembers.teamId, teamIds));
  for (const row of rows) byTeam.get(row.teamId)?.push(row.userId);
  return byTeam;
}

/** The account's teams, for a keyset page. */
export function selectTeams(executor: Executor) {
  return executor.select().from(teams).$dynamic();
}

export /** A team of the account, or undefined. */
async function findTeam(executor: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await executor
    .select()
    .from(teams)
    .where(and(eq(teams.accountId, accountId), eq(teams.id, id)))
    .limit(1);
  return row;
}

/** A team of the account, locked. */
export async function lockTeam(tx: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await tx
    .select()
    .from(teams)
    .where(and(eq(teams.accountId, accountId), eq(teams.id, id)))
    .for("update");
  return row;
}

export async function insertTeam(tx: Executor, values: typeof teams.$inferInsert) {
  const [row] = await tx.insert(teams).values(values).returning();
  return row;
}

export async function updateTeamRow(tx: Executor, { id, set }: { id: string; set: Partial<typeof teams.$inferInsert> }) {
  const [row] = await tx.update(teams).set(set).where(eq(teams.id, id)).returning();
  return row;
}

/** Deletes a team of the account and returns it (undefined when there is none). */
export async function deleteTeamRow(tx: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await tx
    .delete(teams)
    .where(and(eq(teams.accountId, accountId), eq(teams.id, id)))
    .returning();
  return row;
}

/** Replaces the team's members. */
export async function replaceTeamMembers(tx: Executor, { accountId, teamId, memberIds }: { accountId: string; teamId: string; memberIds: string[] }) {
  await tx.delete(teamMembers).where(eq(teamMembers.teamId, teamId));
  if (memberIds.length) await tx.insert(teamMembers).values(memberIds.map((userId) => ({ teamId, userId, accountId })));
}

