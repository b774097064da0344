import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { countInboxRows } from "./store";

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
  const { counts, mentions } = await countInboxRows(ctx.db, { accountId: ctx.accountId, userId: ctx.user.id });
  return {
    all: Number(counts?.all ?? 0),
    mine: Number(counts?.mine ?? 0),
    unassigned: Number(counts?.unassigned ?? 0),
    snoozed: Number(counts?.snoozed ?? 0),
    closed: Number(counts?.closed ?? 0),
    mentions: Number(mentions ?? 0),
    unread: Number(counts?.unread ?? 0),
  };
}
