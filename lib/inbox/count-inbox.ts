import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { and, countDistinct, eq, isNull, ne, notInArray, sql } from "drizzle-orm";
import { conversationCounts, notifications } from "@/db/schema";

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
  const awake = notInArray(conversationCounts.status, ["closed", "snoozed"]);
  // Every tab's count from the account's kept counts (a few rows per status and assignee), not
  // a pass over its conversations.
  const tabs = db
    .select({
      all: sql<number>`coalesce(sum(${conversationCounts.n}) filter (where ${awake}), 0)`,
      mine: sql<number>`coalesce(sum(${conversationCounts.n}) filter (where ${and(awake, eq(conversationCounts.userId, ctx.user.id))}), 0)`,
      unassigned: sql<number>`coalesce(sum(${conversationCounts.n}) filter (where ${and(awake, eq(conversationCounts.userId, ""))}), 0)`,
      snoozed: sql<number>`coalesce(sum(${conversationCounts.n}) filter (where ${eq(conversationCounts.status, "snoozed")}), 0)`,
      closed: sql<number>`coalesce(sum(${conversationCounts.n}) filter (where ${eq(conversationCounts.status, "closed")}), 0)`,
      unread: sql<number>`coalesce(sum(${conversationCounts.n}) filter (where ${and(ne(conversationCounts.status, "closed"), eq(conversationCounts.unread, true))}), 0)`,
    })
    .from(conversationCounts)
    .where(eq(conversationCounts.accountId, ctx.accountId));
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
