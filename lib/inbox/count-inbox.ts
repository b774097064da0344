import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { and, count, eq, gt, isNull, ne } from "drizzle-orm";
import { getDb } from "@/db";
import { conversations } from "@/db/schema";

export type InboxCounts = { all: number; mine: number; unassigned: number; unread: number };

/**
 * What the filter tabs and the tab title count: open conversations (all, mine, unassigned)
 * and conversations with unread customer messages (closed ones never count; a new customer
 * message reopens them anyway).
 */
export async function countInbox({ ctx }: { ctx: ServiceContext<"user"> }): Promise<InboxCounts> {
  const notClosed = and(eq(conversations.accountId, ctx.accountId), ne(conversations.status, "closed"));
  const countWhere = async (where: ReturnType<typeof and>) => (await getDb().select({ n: count() }).from(conversations).where(where))[0]?.n ?? 0;
  const [all, mine, unassigned, unread] = await Promise.all([
    countWhere(notClosed),
    countWhere(and(notClosed, eq(conversations.assignedTo, ctx.user.id))),
    countWhere(and(notClosed, isNull(conversations.assignedTo))),
    countWhere(and(notClosed, gt(conversations.unreadCount, 0))),
  ]);
  return { all: Number(all), mine: Number(mine), unassigned: Number(unassigned), unread: Number(unread) };
}
