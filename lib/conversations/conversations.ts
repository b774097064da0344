import type { Tx } from "@/db";
import type { conversations, users } from "@/db/schema";
import type { CursorPosition } from "@/lib/platform/cursor";
import { toPage } from "@/lib/platform/cursor";
import { cursorPlaceholders } from "@/lib/platform/pagination";
import type { ServiceContext } from "@/lib/auth/context";
import { ConflictError, invalidField, NotFoundError } from "@/lib/platform/errors";
import { recordActivity } from "@/lib/activity/record-activity";
import { userActor } from "@/lib/activity/schemas";
import { scheduleSurveyOnClose } from "@/lib/csat/schedule";
import { recordResolution } from "@/lib/reports/record";
import { recordEvent } from "@/lib/events/record-event";
import { slaOnClose } from "@/lib/sla/sla";
import { drainAssignmentQueue } from "@/lib/teams/assignment";
import type { EventType } from "@/lib/events/types";
import type { ActivityType } from "@/lib/activity/schemas";
import { presentUserRef, type UserRefOutput } from "@/lib/auth/user-identity";
import { type ConversationStatus, type ConversationWithContact, type Priority, presentAssignment, presentConversation, priorities } from "./schemas";
import {
  deleteConversationMedia,
  deleteConversationRow,
  findConversation,
  joinContact,
  labelPlaceholder,
  listConversationRows,
  updateConversationRow,
} from "./store";
import { reopenClosedConversation } from "./start-conversation";
import { findLiveUser, findUserName } from "@/lib/users/store";

/**
 * Newest first by (created_at, id): an immutable key, so rows added while a client pages
 * land before its first page and never shift the pages it has yet to read. Each filter
 * combination is a range scan on one of the conversations_account_* indexes.
 */
export async function listConversations({
  ctx,
  limit,
  cursor,
  status,
  assignedTo,
  label,
  team,
  priority,
  sort = "created",
}: {
  ctx: ServiceContext;
  limit: number;
  cursor?: CursorPosition;
  status?: ConversationStatus;
  assignedTo?: string;
  label?: string;
  team?: string;
  priority?: Priority | "none";
  sort?: "created" | "priority";
}) {
  const assignee = assignedTo === "none" ? "none" : assignedTo ? "user" : null;
  const teamShape = team === "none" ? "none" : team ? "team" : null;
  const priorityShape = priority === "none" ? "none" : priority ? "value" : null;
  // A priority-order cursor carries the row's rank in front of its id (`2:conv_…`).
  const byPriority = sort === "priority";
  const rankedCursor = byPriority && cursor ? parseRankedId(cursor.id) : undefined;
  const rows = await listConversationRows(ctx.db, { status: !!status, assignee, label: !!label, cursor: !!cursor, team: teamShape, priority: priorityShape, sort }, {
    accountId: ctx.accountId,
    limit: limit + 1,
    ...(status ? { status } : {}),
    ...(assignee === "user" ? { assignedTo } : {}),
    ...(label ? labelPlaceholder(label) : {}),
    ...(teamShape === "team" ? { teamId: team } : {}),
    ...(priorityShape === "value" ? { priority } : {}),
    ...(cursor ? (rankedCursor ? { cursorAt: cursor.t.toISOString(), cursorId: rankedCursor.id, cursorRank: rankedCursor.rank } : cursorPlaceholders(cursor)) : {}),
  });
  const position = byPriority
    ? (c: ConversationWithContact) => ({ t: c.lastMessageAt ?? c.createdAt, id: `${priorityOrder(c.priority)}:${c.id}` })
    : (c: ConversationWithContact) => ({ t: c.createdAt, id: c.id });
  return toPage(rows.map(joinContact), limit, position, presentConversation);
}

const priorityOrder = (priority: Priority | null) => (priority ? priorities.indexOf(priority) : priorities.length);

function parseRankedId(value: string) {
  const match = /^([0-4]):(conv_[0-9a-z]+)$/.exec(value);
  if (!match) throw invalidField("cursor", "belongs to another list or other filters: start again without a cursor");
  return { rank: Number(match[1]), id: match[2] };
}

export async function getConversation({ ctx, id }: { ctx: ServiceContext; id: string }) {
  return presentConversation(await findConversation(ctx.db, { accountId: ctx.accountId, id }));
}

type Action = "assign" | "unassign" | "close" | "reopen";
type TransitionAction = Exclude<Action, "reopen">;

// The status machine: which statuses each action may start from.
// A snoozed conversation keeps sleeping when it changes hands; closing it ends the snooze.
const allowedFrom: Record<TransitionAction, ConversationStatus[]> = {
  assign: ["open", "assigned", "snoozed"],
  unassign: ["assigned", "snoozed"],
  close: ["open", "assigned", "snoozed"],
};

const refusal: Record<Action, (status: ConversationStatus) => string> = {
  assign: () => "A closed conversation cannot be assigned; reopen it first.",
  unassign: (status) => (status === "closed" ? "A closed conversation cannot be unassigned; reopen it first." : "The conversation is not assigned."),
  close: () => "The conversation is already closed.",
  reopen: () => "Only a closed conversation can be reopened.",
};

async function transition(
  ctx: ServiceContext<"user">,
  id: string,
  action: TransitionAction,
  change: (tx: Tx, current: ConversationWithContact, now: Date) => Promise<Partial<typeof conversations.$inferInsert> | null>,
  event: (updated: ConversationWithContact, tx: Tx) => Promise<{ type: EventType; data: Record<string, unknown> }>,
  activity: (before: ConversationWithContact, tx: Tx) => Promise<{ type: ActivityType; data?: Record<string, unknown> }>,
) {
  return ctx.db.transaction(async (tx) => {
    const current = await findConversation(tx, { accountId: ctx.accountId, id, lock: true });
    if (!allowedFrom[action].includes(current.status)) throw new ConflictError(refusal[action](current.status), "invalid_transition");
    const now = new Date();
    const values = await change(tx, current, now);
    // Nothing to change (assigning to the current assignee): no write, no event.
    if (!values) return presentConversation(current);
    const row = await updateConversationRow(tx, { id: current.id, set: { ...values, updatedAt: now } });
    const updated = { ...row, contact: current.contact };
    const { type, data } = await event(updated, tx);
    await recordEvent({ ...ctx, db: tx }, { accountId: ctx.accountId, type, data });
    const trail = await activity(current, tx);
    await recordActivity(tx, { accountId: ctx.accountId, conversationId: current.id, type: trail.type, actor: userActor(ctx.user), data: trail.data, at: now });
    return presentConversation(updated);
  });
}

/** `{id, name}` of a user of the account (deleted ones too), for the activity trail. */
async function userSummary(tx: Tx, accountId: string, userId: string | null) {
  if (!userId) return null;
  return (await findUserName(tx, { accountId, id: userId })) ?? null;
}

export const actor = (ctx: ServiceContext<"user">): UserRefOutput => ({ id: ctx.user.id, name: ctx.user.name, email: ctx.user.email, role: ctx.user.role });

/**
 * Assigns to `userId` (default: the caller), who must be a current user of the account.
 * Taking a conversation counts as reading it: its unread count resets.
 */
export async function assignConversation({ ctx, id, userId }: { ctx: ServiceContext<"user">; id: string; userId?: string }) {
  const targetId = userId ?? ctx.user.id;
  let assignee: typeof users.$inferSelect | undefined;
  return transition(
    ctx,
    id,
    "assign",
    async (tx, current, now) => {
      assignee = await findLiveUser(tx, { accountId: ctx.accountId, id: targetId });
      if (!assignee) throw new NotFoundError("User");
      if (current.assignedTo === targetId && current.status !== "open") return null;
      return { status: current.status === "snoozed" ? "snoozed" : "assigned", assignedTo: targetId, assignedAt: now, unreadCount: 0 };
    },
    async (updated) => ({
      type: "conversation.assigned",
      data: {
        conversation: presentAssignment(updated),
        user: presentUserRef(assignee!),
      },
    }),
    async () => ({ type: "assigned", data: { assignee: { id: assignee!.id, name: assignee!.name } } }),
  );
}

export async function unassignConversation({ ctx, id }: { ctx: ServiceContext<"user">; id: string }) {
  return transition(
    ctx,
    id,
    "unassign",
    async (_tx, current) => {
      if (!current.assignedTo) throw new ConflictError(refusal.unassign(current.status), "invalid_transition");
      return { status: current.status === "snoozed" ? "snoozed" : "open", assignedTo: null, assignedAt: null };
    },
    async (updated) => ({ type: "conversation.unassigned", data: { conversation: presentConversation(updated), user: actor(ctx) } }),
    async (before, tx) => ({ type: "unassigned", data: { previous_assignee: await userSummary(tx, ctx.accountId, before.assignedTo) } }),
  );
}

/** Closes an open or assigned conversation; the assignee stays so that a reopen returns it to them. */
export async function closeConversation({ ctx, id }: { ctx: ServiceContext<"user">; id: string }) {
  return transition(
    ctx,
    id,
    "close",
    async (_tx, _current, now) => ({ status: "closed", closedAt: now, snoozedUntil: null, unreadCount: 0 }),
    async (updated, tx) => {
      await scheduleSurveyOnClose(tx, { accountId: ctx.accountId, conversation: updated });
      await recordResolution(tx, { accountId: ctx.accountId, conversation: updated, actorId: ctx.user.id });
      await slaOnClose(tx, { accountId: ctx.accountId, conversationId: updated.id, at: updated.closedAt ?? new Date() });
      // The assignee's place is free: the oldest waiting conversation may take it.
      await drainAssignmentQueue({ ...ctx, db: tx }, { accountId: ctx.accountId });
      return { type: "conversation.closed", data: { conversation: presentConversation(updated), user: actor(ctx) } };
    },
    async () => ({ type: "closed" }),
  );
}

/** Reopens a closed conversation: `assigned` when its assignee is still a user of the account, else `open`. */
export async function reopenConversation({ ctx, id }: { ctx: ServiceContext<"user">; id: string }) {
  return ctx.db.transaction(async (tx) => {
    const current = await findConversation(tx, { accountId: ctx.accountId, id, lock: true });
    if (current.status !== "closed") throw new ConflictError(refusal.reopen(current.status), "invalid_transition");
    const row = await reopenClosedConversation({ ...ctx, db: tx }, { accountId: ctx.accountId, conversation: current, contact: current.contact, user: actor(ctx) });
    return presentConversation({ ...row, contact: current.contact });
  });
}

/** Deletes the conversation, its messages and their media for good. */
export async function deleteConversation({ ctx, id }: { ctx: ServiceContext<"user">; id: string }) {
  await ctx.db.transaction(async (tx) => {
    const current = await findConversation(tx, { accountId: ctx.accountId, id, lock: true });
    await deleteConversationMedia(tx, { accountId: ctx.accountId, conversationId: current.id });
    await deleteConversationRow(tx, { id: current.id });
  });
}
