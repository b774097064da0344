import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { and, countDistinct, eq, gt, isNull, ne, notInArray, sql } from "drizzle-orm";
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
  const db = ctx.db;
  const awake = notInArray(conversations.status, ["closed", "snoozed"]);
  // One pass over the account's conversations gives every tab's count.
  const tabs = db
    .select({
      all: sql<number>`count(*) filter (where ${awake})`,
      mine: sql<number>`count(*) filter (where ${and(awake, eq(conversations.assignedTo, ctx.user.id))})`,
      unassigned: sql<number>`count(*) filter (where ${and(awake, isNull(conversations.assignedTo))})`,
      snoozed: sql<number>`count(*) filter (where ${eq(conversations.status, "snoozed")})`,
      closed: sql<number>`count(*) filter (where ${eq(conversations.status, "closed")})`,
      unread: sql<number>`count(*) filter (where ${and(ne(conversations.status, "closed"), gt(conversations.unreadCount, 0))})`,
    })
    .from(conversations)
    .where(eq(conversations.accountId, ctx.accountId));
  const unreadMentions = db
    .select({ n: countDistinct(notifications.conversationId) })
    .from(notifications)
    .where(and(eq(notifications.accountId, ctx.accountId), eq(notifications.userId, ctx.user.id), isNull(notifications.readAt)));
  const [[counts], [mentions]] = await Promise.all([tabs, unreadMentions]);
  return {
    all: Number(counts?.all ?? 0),
    mine: Number(counts?.mine ?? 0),
    unassigned: Number(counts?.unassigned ?? 0),
    snoozed: Number(counts?.snoozed ?? 0),
    closed: Number(counts?.closed ?? 0),
    mentions: Number(mentions?.n ?? 0),
    unread: Number(counts?.unread ?? 0),
  };
}
