import "server-only";
import { and, count, desc, eq, inArray, isNull } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { contacts, conversationNotes, conversations, notifications, users } from "@/db/schema";
import { type CursorPosition, toPage } from "@/lib/platform/cursor";
import { afterCursor } from "@/lib/platform/pagination";
import type { ServiceContext } from "@/lib/auth/context";
import type { MarkNotificationsReadInput, NotificationOutput } from "./schemas";

const actors = alias(users, "actors");

async function unreadCount(ctx: ServiceContext<"user">) {
  const [row] = await ctx.db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.accountId, ctx.accountId), eq(notifications.userId, ctx.user.id), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/** The caller's own notifications, newest first, with how many are unread. */
export async function listNotifications({ ctx, limit, cursor, unread }: { ctx: ServiceContext<"user">; limit: number; cursor?: CursorPosition; unread?: boolean }) {
  const rows = await ctx.db
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
        eq(notifications.accountId, ctx.accountId),
        eq(notifications.userId, ctx.user.id),
        unread ? isNull(notifications.readAt) : undefined,
        afterCursor(notifications, cursor, "desc"),
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit + 1);
  const page = toPage(
    rows,
    limit,
    (r) => ({ t: r.notification.createdAt, id: r.notification.id }),
    (r): NotificationOutput => ({
      id: r.notification.id,
      type: r.notification.type,
      conversation_id: r.notification.conversationId,
      note_id: r.notification.noteId,
      actor: r.actor?.id ? { id: r.actor.id, name: r.actor.name } : null,
      text: r.note?.text != null ? r.note.text.slice(0, 200) : (r.notification.message ?? null),
      contact: r.contact?.id ? r.contact : null,
      read_at: r.notification.readAt ? r.notification.readAt.toISOString() : null,
      created_at: r.notification.createdAt.toISOString(),
    }),
  );
  return { ...page, unread_count: await unreadCount(ctx) };
}

/** Marks the caller's notifications read: the given ones (others' ids change nothing) or all. */
export async function markNotificationsRead({ ctx, input }: { ctx: ServiceContext<"user">; input: MarkNotificationsReadInput }) {
  const now = new Date();
  const updated = await ctx.db
    .update(notifications)
    .set({ readAt: now })
    .where(
      and(
        eq(notifications.accountId, ctx.accountId),
        eq(notifications.userId, ctx.user.id),
        isNull(notifications.readAt),
        "ids" in input ? inArray(notifications.id, input.ids) : undefined,
      ),
    )
    .returning({ id: notifications.id });
  return { updated: updated.length, unread_count: await unreadCount(ctx) };
}
