import { and, count, desc, eq, inArray, isNull } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Executor } from "@/db";
import { contacts, conversationNotes, conversations, notifications, users } from "@/db/schema";
import type { CursorPosition } from "@/lib/platform/cursor";
import { afterCursor } from "@/lib/platform/pagination";
import { newId } from "@/lib/platform/ids";

const actors = alias(users, "actors");

/** How many of the user's notifications are unread. */
export async function countUnreadNotifications(db: Executor, { accountId, userId }: { accountId: string; userId: string }) {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.accountId, accountId), eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/** The user's notifications past `cursor`, newest first, with the note, the actor and the contact they name. */
export async function findUserNotifications(
  db: Executor,
  { accountId, userId, limit, cursor, unread }: { accountId: string; userId: string; limit: number; cursor?: CursorPosition; unread?: boolean },
) {
  return db
    .select({
      notification: notifications,
      note: { text: conversationNotes.text },
      actor: { id: actors.id, name: actors.name },
      contact: { id: contacts.id, phone: contacts.phone, username: contacts.username, name: contacts.name },
    })
    .from(notifications)
    .leftJoin(conversations, eq(conversations.id, notifications.conversationId))
    .leftJoin(contacts, eq(contacts.id, conversations.contactId))
    .leftJoin(conversationNotes, eq(conversationNotes.id, notifications.noteId))
    .leftJoin(actors, eq(actors.id, notifications.actorId))
    .where(
      and(
        eq(notifications.accountId, accountId),
        eq(notifications.userId, userId),
        unread ? isNull(notifications.readAt) : undefined,
        afterCursor(notifications, cursor, "desc"),
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
}

/** Marks the user's unread notifications read: the given ones, or all; returns those it changed. */
export async function markUserNotificationsRead(db: Executor, { accountId, userId, ids, at }: { accountId: string; userId: string; ids?: string[]; at: Date }) {
  return db
    .update(notifications)
    .set({ readAt: at })
    .where(and(eq(notifications.accountId, accountId), eq(notifications.userId, userId), isNull(notifications.readAt), ids ? inArray(notifications.id, ids) : undefined))
    .returning({ id: notifications.id });
}

/** One `mention` notification per user. */
export async function insertMentionNotifications(
  tx: Executor,
  input: { accountId: string; conversationId: string; noteId: string; actorId: string; userIds: string[]; at: Date },
) {
  await tx.insert(notifications).values(
    input.userIds.map((userId) => ({
      id: newId("notification", input.at),
      accountId: input.accountId,
      userId,
      type: "mention" as const,
      conversationId: input.conversationId,
      noteId: input.noteId,
      actorId: input.actorId,
      createdAt: input.at,
    })),
  );
}

/** One notification of this type about a conversation per user (an SLA warning or breach). */
export async function insertConversationNotifications(
  tx: Executor,
  input: { accountId: string; conversationId: string; type: "sla_warning" | "sla_breached"; message: string; userIds: string[]; at: Date },
) {
  await tx.insert(notifications).values(
    input.userIds.map((userId) => ({ id: newId("notification", input.at), accountId: input.accountId, userId, type: input.type, conversationId: input.conversationId, message: input.message, createdAt: input.at })),
  );
}
