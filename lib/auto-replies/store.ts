import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { conversations, messages } from "@/db/schema";

// The reads and writes of automatic answers: the conversation's auto-reply state (its last
// outside-hours answer and the newest inbound message handled) and the assistant's hand-off.

/** The conversation's status and auto-reply state, locked until the transaction ends; undefined when missing. */
export async function lockAutoReplyState(tx: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await tx
    .select({ id: conversations.id, status: conversations.status, lastAutoReplyAt: conversations.lastAutoReplyAt, handled: conversations.autoReplyHandledMessageId })
    .from(conversations)
    .where(and(eq(conversations.accountId, accountId), eq(conversations.id, id)))
    .for("update");
  return row;
}

/** What an automatic answer needs of one message of the conversation; undefined when missing. */
export async function findMessageToAnswer(tx: Executor, { accountId, conversationId, id }: { accountId: string; conversationId: string; id: string }) {
  const [row] = await tx
    .select({ id: messages.id, direction: messages.direction, senderType: messages.senderType, fromNumber: messages.fromNumber, text: messages.text, createdAt: messages.createdAt, deletedAt: messages.deletedAt })
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.conversationId, conversationId), eq(messages.id, id)))
    .limit(1);
  return row;
}

/** Remembers `messageId` as the newest inbound message handled (and, when given, when the last outside-hours answer went). */
export async function markAutoReplyHandled(tx: Executor, { id, messageId, lastAutoReplyAt }: { id: string; messageId: string; lastAutoReplyAt?: Date }) {
  await tx
    .update(conversations)
    .set({ autoReplyHandledMessageId: messageId, ...(lastAutoReplyAt ? { lastAutoReplyAt } : {}) })
    .where(eq(conversations.id, id));
}

/** Who the account's conversation is assigned to: `{ assignedTo }`, or undefined when missing. */
export async function findConversationAssignee(db: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await db.select({ assignedTo: conversations.assignedTo }).from(conversations).where(and(eq(conversations.accountId, accountId), eq(conversations.id, id)));
  return row;
}

/** Unassigns the account's conversation; an `assigned` one goes back to `open`. */
export async function unassignConversationRow(db: Executor, { accountId, id, wasAssignedStatus, at }: { accountId: string; id: string; wasAssignedStatus: boolean; at: Date }) {
  await db
    .update(conversations)
    .set({ assignedTo: null, assignedAt: null, ...(wasAssignedStatus ? { status: "open" as const } : {}), updatedAt: at })
    .where(and(eq(conversations.accountId, accountId), eq(conversations.id, id)));
}
