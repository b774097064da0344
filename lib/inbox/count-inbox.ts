import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { and, count, countDistinct, eq, gt, isNull, notInArray } from "drizzle-orm";
import { getDb } from "@/db";
import { conversations, notifications } from "@/db/schema";

export type InboxCounts = {
  all: number;
  mine: number;
  unassigned: number;
  snoozed: number;
  closed: number;
  mentions: number;
  unread: number;
};

/**
 * What the filter tabs and the tab title count. Each tab counts what it lists: All, Mine and
 * Unassigned the awake conversations (neither closed nor snoozed), Snoozed and Closed theirs;
 * Mentions counts the conversations with a mention of me not read yet. `unread` counts the
 * conversations with unread customer messages that are not closed (a new customer message
 * reopens them anyway).
 */
export async function countInbox({ ctx }: { ctx: ServiceContext<"user"> }): Promise<InboxCounts> {
  const db = getDb();
  const inAccount = eq(conversations.accountId, ctx.accountId);
  const awake = and(inAccount, notInArray(conversations.status, ["closed", "snoozed"]));
  const countWhere = async (where: ReturnType<typeof and>) => (await db.select({ n: count() }).from(conversations).where(where))[0]?.n ?? 0;
  const unreadMentions = async () =>
    (
      await db
        .select({ n: countDistinct(notifications.conversationId) })
        .from(notifications)
        .where(and(eq(notifications.accountId, ctx.accountId), eq(notifications.userId, ctx.user.id), isNull(notifications.readAt)))
    )[0]?.n ?? 0;
  const [all, mine, unassigned, snoozed, closed, mentions, unread] = await Promise.all([
    countWhere(awake),
    countWhere(and(awake, eq(conversations.assignedTo, ctx.user.id))),
    countWhere(and(awake, isNull(conversations.assignedTo))),
    countWhere(and(inAccount, eq(conversations.status, "snoozed"))),
    countWhere(and(inAccount, eq(conversations.status, "closed"))),
    unreadMentions(),
    countWhere(and(inAccount, notInArray(conversations.status, ["closed"]), gt(conversations.unreadCount, 0))),
  ]);
  return {
    all: Number(all),
    mine: Number(mine),
    unassigned: Number(unassigned),
    snoozed: Number(snoozed),
    closed: Number(closed),
    mentions: Number(mentions),
    unread: Number(unread),
  };
}
