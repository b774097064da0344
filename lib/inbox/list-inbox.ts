import "server-only";
import { and, desc, eq, ilike, isNull, notInArray, or, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/db";
import { contacts, conversations, notifications } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { limitSchema } from "@/lib/platform/pagination";
import { decodeCursor, encodeCursor } from "@/lib/platform/cursor";
import { labelIdPattern, presentConversation, teamIdPattern } from "@/lib/conversations/schemas";
import { hasLabel } from "@/lib/conversations/store";

export const inboxFilters = ["all", "mine", "unassigned", "snoozed", "closed", "mentions"] as const;

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
});
export type InboxQuery = z.infer<typeof inboxQuery>;

const teamFilter = (team: string | undefined) => (team === "none" ? isNull(conversations.teamId) : team ? eq(conversations.teamId, team) : undefined);

/**
 * The inbox list: most recent activity first (a conversation without messages counts
 * from its creation), filtered and searched, in keyset pages. Activity moves, so the
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
  const after = query.cursor
    ? sql`(${activity}, ${conversations.id}) < (${query.cursor.t.toISOString()}::timestamptz, ${query.cursor.id})`
    : undefined;
  const rows = await getDb()
    .select({ conversation: conversations, contact: contacts, activity })
    .from(conversations)
    .innerJoin(contacts, eq(contacts.id, conversations.contactId))
    .where(and(eq(conversations.accountId, ctx.accountId), filter, search, query.label ? hasLabel(query.label) : undefined, teamFilter(query.team), after))
    .orderBy(desc(activity), desc(conversations.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    data: page.map(({ conversation, contact }) => presentConversation({ ...conversation, contact })),
    pagination: {
      has_more: rows.length > query.limit,
      next_cursor: rows.length > query.limit && last ? encodeCursor({ t: new Date(last.activity), id: last.conversation.id }) : null,
    },
  };
}
