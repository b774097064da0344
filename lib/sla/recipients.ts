import type { Executor } from "@/db";
import { findSlaAlertUserIds } from "./store";

/**
 * Who hears about an SLA warning or breach, in the app and by push: the assignee; while nobody
 * is assigned, every admin and, when the conversation belongs to a team, the team's members
 * (the people who would pick it up), never nobody while the account has an admin.
 */
export async function slaAlertRecipients(db: Executor, { accountId, assigneeId, teamId }: { accountId: string; assigneeId: string | null; teamId: string | null }): Promise<string[]> {
  if (assigneeId) return [assigneeId];
  return findSlaAlertUserIds(db, { accountId, teamId });
}
