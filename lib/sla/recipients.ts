import { and, eq, inArray, isNull, or } from "drizzle-orm";
import type { Executor } from "@/db";
import { teamMembers, users } from "@/db/schema";

/**
 * Who hears about an SLA warning or breach, in the app and by push: the assignee; while nobody
 * is assigned, every admin and, when the conversation belongs to a team, the team's members
 * (the people who would pick it up), never nobody while the account has an admin.
 */
export async function slaAlertRecipients(db: Executor, { accountId, assigneeId, teamId }: { accountId: string; assigneeId: string | null; teamId: string | null }): Promise<string[]> {
  if (assigneeId) return [assigneeId];
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
