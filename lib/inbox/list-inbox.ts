import "server-only";
import { and, asc, desc, eq, ilike, isNull, notInArray, or, sql } from "drizzle-orm";
import { z } from "zod";
import { contacts, conversations, notifications, priorityRank } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { limitSchema } from "@/lib/platform/pagination";
import { decodeCursor, encodeCursor } from "@/lib/platform/cursor";
import { invalidField } from "@/lib/platform/errors";
import { labelIdPattern, presentConversation, teamIdPattern } from "@/lib/conversations/schemas";
import { hasLabel } from "@/lib/conversations/store";

const inboxFilters = ["all", "mine", "unassigned", "snoozed", "closed", "mentions"] as const;

export const inboxQuery = z.object({
  filter: z.enum(inboxFilters).default("all"),
  q: z.string().trim().max(100).optional(),
  limit: limitSchema.default(30),
  cursor: z.string().min(1).transform((c) => decodeCursor(c)).optional(),
  label: z.string().regex(labelIdPattern, "must be a label id (lbl_...)").optional(),
  team: z
    .string()
    .refine((value) => value === "none" || teamIdPattern.test(value), "must be a team id (team_...) or none")
    .optional(),
  /** `activity` (latest first, the default) or `priority` (urgent first, then by latest activity). */
  sort: z.enum(["activity", "priority"], { error: "must be activity or priority" }).default("activity"),
});
export type InboxQuery = z.infer<typeof inboxQuery>;

const rankOf = priorityRank(conversations.priority);

/** A priority-order cursor carries the row's rank in front of its id (`2:conv_…`). */
function rankedCursor(id: string) {
  const match = /^([0-4]):(conv_[0-9a-z]+)$/.exec(id);
  if (!match) throw invalidField("cursor", "belongs to another order: start again without a cursor");
  return { rank: Number(match[1]), id: match[2] };
}

const teamFilter = (team: string | undefined) => (team === "none" ? isNull(conversations.teamId) : team ? eq(conversations.teamId, team) : undefined);

/**
 * The inbox list: most recent activity first (a conversation without messages counts
 * from its creation), or with `sort=priority` urgent first and then by activity, filtered and
 * searched, in keyset pages. Activity moves, so the
 * inbox re-sorts live updates itself; paging only has to be cheap and never repeat a row.
 */
export async function listInbox({ ctx, query }: { ctx: ServiceContext<"user">; query: InboxQuery }) {
  const activity = sql<Date>`coalesce(${conversations.lastMessageAt}, ${conversations.createdAt})`;
  // Snoozed conversations are out of the way until they wake: only the Snoozed filter shows them.
  const awake = notInArray(conversations.status, ["closed", "snoozed"]);
  const filter =
    query.filter === "mine"
      ? and(eq(conversations.assignedTo, ctx.user.id), awake)
      : query.filter === "unassigned"
        ? and(isNull(conversations.assignedTo), awake)
        : query.filter === "closed"
          ? eq(conversations.status, "closed")
          : query.filter === "snoozed"
            ? eq(conversations.status, "snoozed")
            : query.filter === "mentions"
              ? // Where a teammate mentioned me in a note, whatever the status.
                sql`exists (select 1 from ${notifications} where ${notifications.userId} = ${ctx.user.id} and ${notifications.conversationId} = ${conversations.id})`
              : awake;
  const term = query.q ? `%${query.q.replace(/[%_\\]/g, (c) => `\\${c}`)}%` : undefined;
  const digits = query.q?.replace(/\D/g, "");
  const search = term
    ? or(ilike(contacts.name, term), ilike(contacts.username, term), digits ? ilike(contacts.phone, `%${digits}%`) : undefined)
    : undefined;
  const byPriority = query.sort === "priority";
  const ranked = byPriority && query.cursor ? rankedCursor(query.cursor.id) : undefined;
  const after = !query.cursor
    ? undefined
    : ranked
      ? sql`(${rankOf} > ${ranked.rank}::int or (${rankOf} = ${ranked.rank}::int and (${activity}, ${conversations.id}) < (${query.cursor.t.toISOString()}::timestamptz, ${ranked.id})))`
      : sql`(${activity}, ${conversations.id}) < (${query.cursor.t.toISOString()}::timestamptz, ${query.cursor.id})`;
  const rows = await ctx.db
    .select({ conversation: conversations, contact: contacts, activity, rank: rankOf })
    .from(conversations)
    .innerJoin(contacts, eq(contacts.id, conversations.contactId))
    .where(and(eq(conversations.accountId, ctx.accountId), filter, search, query.label ? hasLabel(query.label) : undefined, teamFilter(query.team), after))
    .orderBy(...(byPriority ? [asc(rankOf), desc(activity), desc(conversations.id)] : [desc(activity), desc(conversations.id)]))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    data: page.map(({ conversation, contact }) => presentConversation({ ...conversation, contact })),
    pagination: {
      has_more: rows.length > query.limit,
      next_cursor:
        rows.length > query.limit && last ? encodeCursor({ t: new Date(last.activity), id: byPriority ? `${Number(last.rank)}:${last.conversation.id}` : last.conversation.id }) : null,
    },
  };
}
