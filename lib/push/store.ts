import { and, asc, desc, eq, inArray, isNull, ne } from "drizzle-orm";
import type { Executor } from "@/db";
import { contacts, conversationActivities, conversations, messages, notificationPreferences, pushSubscriptions, users } from "@/db/schema";

// The reads and writes of push: devices, people's push choices, and what a push shows.

type Device = { accountId: string; userId: string; endpoint: string; p256dh: string; auth: string; userAgent: string | null };

/** Registers a device of the user (or refreshes its keys), answering its row. */
export async function upsertPushSubscription(db: Executor, { id, values, now }: { id: string; values: Device; now: Date }) {
  const [row] = await db
    .insert(pushSubscriptions)
    .values({ id, ...values, createdAt: now })
    .onConflictDoUpdate({
      target: [pushSubscriptions.accountId, pushSubscriptions.userId, pushSubscriptions.endpoint],
      set: { p256dh: values.p256dh, auth: values.auth, userAgent: values.userAgent, lastPushedAt: null },
    })
    .returning();
  return row;
}

/** The same browser subscription (endpoint and keys) registered by other users of the account. */
export async function deleteSameDeviceOfOthers(db: Executor, values: Device) {
  await db
    .delete(pushSubscriptions)
    .where(
      and(
        eq(pushSubscriptions.accountId, values.accountId),
        ne(pushSubscriptions.userId, values.userId),
        eq(pushSubscriptions.endpoint, values.endpoint),
        eq(pushSubscriptions.p256dh, values.p256dh),
        eq(pushSubscriptions.auth, values.auth),
      ),
    );
}

/** The user's devices, oldest first. */
export async function selectUserDeviceIds(db: Executor, { accountId, userId }: { accountId: string; userId: string }) {
  const rows = await db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.accountId, accountId), eq(pushSubscriptions.userId, userId)))
    .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id));
  return rows.map((r) => r.id);
}

export async function deleteSubscriptions(db: Executor, { accountId, ids }: { accountId: string; ids: string[] }) {
  await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.accountId, accountId), inArray(pushSubscriptions.id, ids)));
}

/** Deletes the user's device with this endpoint; false when there was none. */
export async function deleteUserSubscription(db: Executor, { accountId, userId, endpoint }: { accountId: string; userId: string; endpoint: string }) {
  const deleted = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.accountId, accountId), eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return deleted.length > 0;
}

export async function findSubscription(db: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [subscription] = await db
    .select()
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.accountId, accountId), eq(pushSubscriptions.id, id)))
    .limit(1);
  return subscription;
}

export async function markPushed(db: Executor, { accountId, id }: { accountId: string; id: string }) {
  await db.update(pushSubscriptions).set({ lastPushedAt: new Date() }).where(and(eq(pushSubscriptions.accountId, accountId), eq(pushSubscriptions.id, id)));
}

export async function findPreferences(db: Executor, { accountId, userId }: { accountId: string; userId: string }) {
  const [row] = await db
    .select()
    .from(notificationPreferences)
    .where(and(eq(notificationPreferences.accountId, accountId), eq(notificationPreferences.userId, userId)))
    .limit(1);
  return row;
}

export async function upsertPreferences(
  db: Executor,
  { accountId, userId, values }: { accountId: string; userId: string; values: Omit<typeof notificationPreferences.$inferInsert, "userId" | "accountId"> },
) {
  await db
    .insert(notificationPreferences)
    .values({ userId, accountId, ...values })
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: values });
}

/** The devices of live users of the account (of `userIds` when given), with their owner's choices. */
export function selectPushDevices(db: Executor, { accountId, userIds }: { accountId: string; userIds?: string[] | null }) {
  return db
    .select({ id: pushSubscriptions.id, userId: pushSubscriptions.userId, preferences: notificationPreferences })
    .from(pushSubscriptions)
    .innerJoin(users, and(eq(users.id, pushSubscriptions.userId), isNull(users.deletedAt)))
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, pushSubscriptions.userId))
    .where(and(eq(pushSubscriptions.accountId, accountId), userIds ? inArray(pushSubscriptions.userId, userIds) : undefined));
}

/** Who assigned the conversation last. */
export async function latestAssigner(db: Executor, { accountId, conversationId }: { accountId: string; conversationId: string }) {
  const [latest] = await db
    .select({ actorId: conversationActivities.actorId })
    .from(conversationActivities)
    .where(and(eq(conversationActivities.accountId, accountId), eq(conversationActivities.conversationId, conversationId), eq(conversationActivities.type, "assigned")))
    .orderBy(desc(conversationActivities.createdAt), desc(conversationActivities.id))
    .limit(1);
  return latest?.actorId ?? null;
}

/** The conversation's contact and last message preview, for a push's words. */
export async function findConversationForPush(db: Executor, { accountId, conversationId }: { accountId: string; conversationId: string }) {
  const [row] = await db
    .select({ id: conversations.id, assignedTo: conversations.assignedTo, preview: conversations.lastMessagePreview, name: contacts.name, phone: contacts.phone, username: contacts.username })
    .from(conversations)
    .innerJoin(contacts, eq(contacts.id, conversations.contactId))
    .where(and(eq(conversations.accountId, accountId), eq(conversations.id, conversationId)))
    .limit(1);
  return row;
}

export async function findMessageText(db: Executor, { accountId, messageId }: { accountId: string; messageId: string }) {
  const [message] = await db
    .select({ text: messages.text, type: messages.type })
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.id, messageId)))
    .limit(1);
  return message;
}
