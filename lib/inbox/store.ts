import { and, asc, countDistinct, desc, eq, gt, ilike, isNull, ne, notInArray, or, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { contacts, conversationCounts, conversations, notifications, priorityRank } from "@/db/schema";
import { hasLabel } from "@/lib/conversations/store";

// The inbox's reads over conversations (its list and tab counts) and the team's read mark.

/**
 * Every tab's count from the account's kept counts (a few rows per status and assignee), not a
 * pass over its conversations, and the conversations with a mention of the user not read yet:
 * two statements run side by side.
 */
export async function countInboxRows(db: Executor, { accountId, userId }: { accountId: string; userId: string }) {
  const awake = notInArray(conversationCounts.status, ["closed", "snoozed"]);
  const tabs = db
    .select({
      all: sql<number>`coalesce(sum(${conversationCounts.n}) filter (where ${awake}), 0)`,
      mine: sql<number>`coalesce(sum(${conversationCounts.n}) filter (where ${and(awake, eq(conversationCounts.userId, userId))}), 0)`,
      unassigned: sql<number>`coalesce(sum(${conversationCounts.n}) filter (where ${and(awake, eq(conversationCounts.userId, ""))}), 0)`,
      snoozed: sql<number>`coalesce(sum(${conversationCounts.n}) filter (where ${eq(conversationCounts.status, "snoozed")}), 0)`,
      closed: sql<number>`coalesce(sum(${conversationCounts.n}) filter (where ${eq(conversationCounts.status, "closed")}), 0)`,
      unread: sql<number>`coalesce(sum(${conversationCounts.n}) filter (where ${and(ne(conversationCounts.status, "closed"), eq(conversationCounts.unread, true))}), 0)`,
    })
    .from(conversationCounts)
    .where(eq(conversationCounts.accountId, accountId));
  const unreadMentions = db
    .select({ n: countDistinct(notifications.conversationId) })
    .from(notifications)
    .where(and(eq(notifications.accountId, accountId), eq(notifications.userId, userId), isNull(notifications.readAt)));
  const [[counts], [mentions]] = await Promise.all([tabs, unreadMentions]);
  return { counts, mentions: mentions?.n };
}

export type InboxFilter = "all" | "mine" | "unassigned" | "snoozed" | "closed" | "mentions";

const rankOf = priorityRank(conversations.priority);

const teamFilter = (team: string | undefined) => (team === "none" ? isNull(conversations.teamId) : team ? eq(conversations.teamId, team) : undefined);

/**
 * Up to `limit` conversations of the inbox list with their contacts, after the cursor's key:
 * most recent activity first (a conversation without messages counts from its creation), or
 * with `byPriority` by rank and then activity. Snoozed conversations are out of the way until
 * they wake: only the Snoozed filter shows them; Mentions are where a teammate mentioned the
 * user in a note, whatever the status. `q` matches the contact's name, username or number.
 */
export async function listInboxRows(
  db: Executor,
  input: {
    accountId: string;
    userId: string;
    filter: InboxFilter;
    q?: string;
    label?: string;
    team?: string;
    byPriority: boolean;
    after?: { t: Date; id: string; rank?: number };
    limit: number;
  },
) {
  const { accountId, userId, q, after, byPriority } = input;
  const activity = sql<Date>`coalesce(${conversations.lastMessageAt}, ${conversations.createdAt})`;
  const awake = notInArray(conversations.status, ["closed", "snoozed"]);
  const filter =
    input.filter === "mine"
      ? and(eq(conversations.assignedTo, userId), awake)
      : input.filter === "unassigned"
        ? and(isNull(conversations.assignedTo), awake)
        : input.filter === "closed"
          ? eq(conversations.status, "closed")
          : input.filter === "snoozed"
            ? eq(conversations.status, "snoozed")
            : input.filter === "mentions"
              ? sql`exists (select 1 from ${notifications} where ${notifications.userId} = ${userId} and ${notifications.conversationId} = ${conversations.id})`
              : awake;
  const term = q ? `%${q.replace(/[%_\\]/g, (c) => `\\${c}`)}%` : undefined;
  const digits = q?.replace(/\D/g, "");
  const search = term ? or(ilike(contacts.name, term), ilike(contacts.username, term), digits ? ilike(contacts.phone, `%${digits}%`) : undefined) : undefined;
  const afterKey = !after
    ? undefined
    : after.rank !== undefined
      ? sql`(${rankOf} > ${after.rank}::int or (${rankOf} = ${after.rank}::int and (${activity}, ${conversations.id}) < (${after.t.toISOString()}::timestamptz, ${after.id})))`
      : sql`(${activity}, ${conversations.id}) < (${after.t.toISOString()}::timestamptz, ${after.id})`;
  return db
    .select({ conversation: conversations, contact: contacts, activity, rank: rankOf })
    .from(conversations)
    .innerJoin(contacts, eq(contacts.id, conversations.contactId))
    .where(and(eq(conversations.accountId, accountId), filter, search, input.label ? hasLabel(input.label) : undefined, teamFilter(input.team), afterKey))
    .orderBy(...(byPriority ? [asc(rankOf), desc(activity), desc(conversations.id)] : [desc(activity), desc(conversations.id)]))
    .limit(input.limit);
}

/** Whether the account has this conversation. */
export async function conversationExists(tx: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await tx
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.accountId, accountId)))
    .limit(1);
  return Boolean(row);
}

/** Sets the conversation's unread count to 0: whether it had any. */
export async function clearUnreadCount(tx: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [wasUnread] = await tx
    .update(conversations)
    .set({ unreadCount: 0 })
    .where(and(eq(conversations.id, id), eq(conversations.accountId, accountId), gt(conversations.unreadCount, 0)))
    .returning({ id: conversations.id });
  return Boolean(wasUnread);
}
