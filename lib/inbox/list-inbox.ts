import "server-only";
import { z } from "zod";
import type { ServiceContext } from "@/lib/auth/context";
import { limitSchema } from "@/lib/platform/pagination";
import { decodeCursor, encodeCursor } from "@/lib/platform/cursor";
import { invalidField } from "@/lib/platform/errors";
import { labelIdPattern, presentConversation, teamIdPattern } from "@/lib/conversations/schemas";
import { type InboxFilter, listInboxRows } from "./store";

const inboxFilters = ["all", "mine", "unassigned", "snoozed", "closed", "mentions"] as const satisfies readonly InboxFilter[];

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

/** A priority-order cursor carries the row's rank in front of its id (`2:conv_…`). */
function rankedCursor(id: string) {
  const match = /^([0-4]):(conv_[0-9a-z]+)$/.exec(id);
  if (!match) throw invalidField("cursor", "belongs to another order: start again without a cursor");
  return { rank: Number(match[1]), id: match[2] };
}

/**
 * The inbox list: most recent activity first (a conversation without messages counts
 * from its creation), or with `sort=priority` urgent first and then by activity, filtered and
 * searched, in keyset pages. Activity moves, so the
 * inbox re-sorts live updates itself; paging only has to be cheap and never repeat a row.
 */
export async function listInbox({ ctx, query }: { ctx: ServiceContext<"user">; query: InboxQuery }) {
  const byPriority = query.sort === "priority";
  const ranked = byPriority && query.cursor ? rankedCursor(query.cursor.id) : undefined;
  const after = query.cursor ? { t: query.cursor.t, id: ranked?.id ?? query.cursor.id, rank: ranked?.rank } : undefined;
  const rows = await listInboxRows(ctx.db, {
    accountId: ctx.accountId,
    userId: ctx.user.id,
    filter: query.filter,
    q: query.q,
    label: query.label,
    team: query.team,
    byPriority,
    after,
    limit: query.limit + 1,
  });
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
