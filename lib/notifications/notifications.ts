import "server-only";
import { type CursorPosition, toPage } from "@/lib/platform/cursor";
import type { ServiceContext } from "@/lib/auth/context";
import type { MarkNotificationsReadInput, NotificationOutput } from "./schemas";
import { countUnreadNotifications, findUserNotifications, markUserNotificationsRead } from "./store";

const unreadCount = (ctx: ServiceContext<"user">) => countUnreadNotifications(ctx.db, { accountId: ctx.accountId, userId: ctx.user.id });

/** The caller's own notifications, newest first, with how many are unread. */
export async function listNotifications({ ctx, limit, cursor, unread }: { ctx: ServiceContext<"user">; limit: number; cursor?: CursorPosition; unread?: boolean }) {
  const rows = await findUserNotifications(ctx.db, { accountId: ctx.accountId, userId: ctx.user.id, limit: limit + 1, cursor, unread });
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
  const updated = await markUserNotificationsRead(ctx.db, { accountId: ctx.accountId, userId: ctx.user.id, ids: "ids" in input ? input.ids : undefined, at: now });
  return { updated: updated.length, unread_count: await unreadCount(ctx) };
}
