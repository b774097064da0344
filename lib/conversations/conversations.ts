import { and, desc, eq, isNull } from "drizzle-orm";
import { getDb, type Tx } from "@/db";
import { conversations, users } from "@/db/schema";
import type { CursorPosition } from "@/lib/api/cursor";
import { toPage } from "@/lib/api/cursor";
import { afterCursor } from "@/lib/api/pagination";
import type { AuthContext } from "@/lib/auth/tokens";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { scheduleSurveyOnClose } from "@/lib/csat/schedule";
import { recordEvent } from "@/lib/events/record-event";
import type { EventType } from "@/lib/events/types";
import { presentUserRef, type UserRefOutput } from "@/lib/users/schemas";
import { type ConversationStatus, type ConversationWithContact, presentAssignment, presentConversation } from "./schemas";
import { deleteConversationMedia, findConversation, joinContact, reopenClosedConversation, selectConversations } from "./store";

type Ctx = Pick<AuthContext, "accountId" | "user">;

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
}: {
  ctx: Pick<Ctx, "accountId">;
  limit: number;
  cursor?: CursorPosition;
  status?: ConversationStatus;
  assignedTo?: string;
}) {
  const rows = await selectConversations(getDb())
    .where(
      and(
        eq(conversations.accountId, ctx.accountId),
        status ? eq(conversations.status, status) : undefined,
        assignedTo === "none" ? isNull(conversations.assignedTo) : assignedTo ? eq(conversations.assignedTo, assignedTo) : undefined,
        afterCursor(conversations, cursor, "desc"),
      ),
    )
    .orderBy(desc(conversations.createdAt), desc(conversations.id))
    .limit(limit + 1);
  return toPage(rows.map(joinContact), limit, (c) => ({ t: c.createdAt, id: c.id }), presentConversation);
}

export async function getConversation({ ctx, id }: { ctx: Pick<Ctx, "accountId">; id: string }) {
  return presentConversation(await findConversation(getDb(), { accountId: ctx.accountId, id }));
}

type Action = "assign" | "unassign" | "close" | "reopen";
type TransitionAction = Exclude<Action, "reopen">;

// The status machine: which statuses each action may start from.
const allowedFrom: Record<TransitionAction, ConversationStatus[]> = {
  assign: ["open", "assigned"],
  unassign: ["assigned"],
  close: ["open", "assigned"],
};

const refusal: Record<Action, (status: ConversationStatus) => string> = {
  assign: () => "A closed conversation cannot be assigned; reopen it first.",
  unassign: (status) => (status === "closed" ? "A closed conversation cannot be unassigned; reopen it first." : "The conversation is not assigned."),
  close: () => "The conversation is already closed.",
  reopen: () => "Only a closed conversation can be reopened.",
};

async function transition(
  ctx: Ctx,
  id: string,
  action: TransitionAction,
  change: (tx: Tx, current: ConversationWithContact, now: Date) => Promise<Partial<typeof conversations.$inferInsert> | null>,
  event: (updated: ConversationWithContact, tx: Tx) => Promise<{ type: EventType; data: Record<string, unknown> }>,
) {
  return getDb().transaction(async (tx) => {
    const current = await findConversation(tx, { accountId: ctx.accountId, id, lock: true });
    if (!allowedFrom[action].includes(current.status)) throw new ConflictError(refusal[action](current.status), "invalid_transition");
    const now = new Date();
    const values = await change(tx, current, now);
    // Nothing to change (assigning to the current assignee): no write, no event.
    if (!values) return presentConversation(current);
    const [row] = await tx
      .update(conversations)
      .set({ ...values, updatedAt: now })
      .where(eq(conversations.id, current.id))
      .returning();
    const updated = { ...row, contact: current.contact };
    const { type, data } = await event(updated, tx);
    await recordEvent(tx, { accountId: ctx.accountId, type, data });
    return presentConversation(updated);
  });
}

export const actor = (ctx: Ctx): UserRefOutput => ({ id: ctx.user.id, name: ctx.user.name, email: ctx.user.email, role: ctx.user.role });

/**
 * Assigns to `userId` (default: the caller), who must be a current user of the account.
 * Taking a conversation counts as reading it: its unread count resets.
 */
export async function assignConversation({ ctx, id, userId }: { ctx: Ctx; id: string; userId?: string }) {
  const targetId = userId ?? ctx.user.id;
  let assignee: typeof users.$inferSelect | undefined;
  return transition(
    ctx,
    id,
    "assign",
    async (tx, current, now) => {
      [assignee] = await tx
        .select()
        .from(users)
        .where(and(eq(users.accountId, ctx.accountId), eq(users.id, targetId), isNull(users.deletedAt)))
        .limit(1);
      if (!assignee) throw new NotFoundError("User");
      if (current.status === "assigned" && current.assignedTo === targetId) return null;
      return { status: "assigned", assignedTo: targetId, assignedAt: now, unreadCount: 0 };
    },
    async (updated) => ({
      type: "conversation.assigned",
      data: {
        conversation: presentAssignment(updated),
        user: presentUserRef(assignee!),
      },
    }),
  );
}

export async function unassignConversation({ ctx, id }: { ctx: Ctx; id: string }) {
  return transition(
    ctx,
    id,
    "unassign",
    async () => ({ status: "open", assignedTo: null, assignedAt: null }),
    async (updated) => ({ type: "conversation.unassigned", data: { conversation: presentConversation(updated), user: actor(ctx) } }),
  );
}

/** Closes an open or assigned conversation; the assignee stays so that a reopen returns it to them. */
export async function closeConversation({ ctx, id }: { ctx: Ctx; id: string }) {
  return transition(
    ctx,
    id,
    "close",
    async (_tx, _current, now) => ({ status: "closed", closedAt: now, unreadCount: 0 }),
    async (updated, tx) => {
      await scheduleSurveyOnClose(tx, { accountId: ctx.accountId, conversation: updated });
      return { type: "conversation.closed", data: { conversation: presentConversation(updated), user: actor(ctx) } };
    },
  );
}

/** Reopens a closed conversation: `assigned` when its assignee is still a user of the account, else `open`. */
export async function reopenConversation({ ctx, id }: { ctx: Ctx; id: string }) {
  return getDb().transaction(async (tx) => {
    const current = await findConversation(tx, { accountId: ctx.accountId, id, lock: true });
    if (current.status !== "closed") throw new ConflictError(refusal.reopen(current.status), "invalid_transition");
    const row = await reopenClosedConversation(tx, { accountId: ctx.accountId, conversation: current, contact: current.contact, user: actor(ctx) });
    return presentConversation({ ...row, contact: current.contact });
  });
}

/** Deletes the conversation, its messages and their media for good. */
export async function deleteConversation({ ctx, id }: { ctx: Ctx; id: string }) {
  await getDb().transaction(async (tx) => {
    const current = await findConversation(tx, { accountId: ctx.accountId, id, lock: true });
    await deleteConversationMedia(tx, { accountId: ctx.accountId, conversationId: current.id });
    await tx.delete(conversations).where(eq(conversations.id, current.id));
  });
}
