import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { conversations, media, messages } from "@/db/schema";
import { NotFoundError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import type { DecodedMedia, MessageWithMedia } from "./schemas";

/**
 * The id of the account's message with this network message id, or undefined. With `lock`,
 * two deliveries of the same network message wait for each other until the transaction ends
 * (the unique index is the backstop), so the one that comes second finds the first.
 */
export async function findIdByNetworkId(
  executor: Executor,
  { accountId, networkMessageId, lock = false }: { accountId: string; networkMessageId: string; lock?: boolean },
): Promise<string | undefined> {
  if (lock) await executor.execute(sql`select pg_advisory_xact_lock(hashtext(${`inbound:${accountId}:${networkMessageId}`}))`);
  const [row] = await executor
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.networkMessageId, networkMessageId)))
    .limit(1);
  return row?.id;
}

/** The columns of a new message; its id and both timestamps come from `at`. */
export type NewMessage = Omit<typeof messages.$inferInsert, "id" | "createdAt" | "updatedAt"> & { at: Date };

/** Stores one message, whichever way it came (received, sent, echoed from the business app, imported). */
export async function insertMessage(tx: Executor, { at, ...fields }: NewMessage) {
  const [row] = await tx
    .insert(messages)
    .values({ id: newId("message", at), ...fields, createdAt: at, updatedAt: at })
    .returning();
  return row;
}

/** `insertMessage` for many messages in one statement, returned in the same order. */
export async function insertMessages(tx: Executor, list: NewMessage[]) {
  if (!list.length) return [];
  const values = list.map(({ at, ...fields }) => ({ id: newId("message", at), ...fields, createdAt: at, updatedAt: at }));
  const rows = await tx.insert(messages).values(values).returning();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return values.map((v) => byId.get(v.id)!);
}

/** The `error` of a message whose file stayed on the business's phone (echoes and imported history). */
export const mediaNotSynced = (origin: string, caption?: string | null) => ({
  code: "media_not_synced",
  message: `${origin}${caption ? `: ${caption}` : ""}; the file stays on the phone.`,
});

/** Messages with their media's metadata; the bytes are never loaded here. */
export function selectMessages(executor: Executor) {
  return executor
    .select({
      message: messages,
      media: { id: media.id, mimeType: media.mimeType, filename: media.filename, caption: media.caption, size: media.size, sha256: media.sha256 },
    })
    .from(messages)
    .leftJoin(media, eq(media.id, messages.mediaId));
}

export const joinMedia = (row: { message: typeof messages.$inferSelect; media: MessageWithMedia["media"] }): MessageWithMedia => ({
  ...row.message,
  media: row.media,
});

export async function findMessage(executor: Executor, { accountId, id, lock = false }: { accountId: string; id: string; lock?: boolean }) {
  const query = selectMessages(executor)
    .where(and(eq(messages.accountId, accountId), eq(messages.id, id)))
    .limit(1);
  const [row] = lock ? await query.for("update", { of: messages }) : await query;
  if (!row) throw new NotFoundError("Message");
  return joinMedia(row);
}

export async function storeMedia(tx: Executor, { accountId, file, at }: { accountId: string; file: DecodedMedia; at: Date }) {
  const [row] = await tx
    .insert(media)
    .values({
      id: newId("media", at),
      accountId,
      mimeType: file.mimeType,
      filename: file.filename ?? null,
      caption: file.caption ?? null,
      size: file.bytes.length,
      sha256: createHash("sha256").update(file.bytes).digest("hex"),
      bytes: file.bytes,
      createdAt: at,
    })
    .returning({ id: media.id, mimeType: media.mimeType, filename: media.filename, caption: media.caption, size: media.size, sha256: media.sha256 });
  return row;
}

/**
 * `touchConversation` for many conversations in one statement, for messages that leave the
 * unread count as it is (an automated send): each gets its latest time and preview.
 */
export async function touchConversationsKeepingUnread(tx: Executor, { at, list }: { at: Date; list: { conversationId: string; preview: string | null }[] }) {
  if (!list.length) return;
  const rows = JSON.stringify(list.map((item) => ({ id: item.conversationId, preview: item.preview })));
  await tx.execute(sql`update ${conversations} set
      last_message_at = greatest(${conversations.lastMessageAt}, ${at.toISOString()}::timestamptz),
      last_message_preview = coalesce(x.preview, ${conversations.lastMessagePreview}),
      updated_at = ${at.toISOString()}::timestamptz
    from jsonb_to_recordset(${rows}::jsonb) as x(id text, preview text)
    where ${conversations.id} = x.id`);
}

/**
 * Records a new latest message on its conversation. Unread counts what customers sent since
 * the business last engaged: an inbound message adds one, a person's reply clears it, and
 * an automated reply leaves it (nobody has looked yet), and its preview too.
 */
export async function touchConversation(
  tx: Executor,
  { conversationId, at, preview, unread }: { conversationId: string; at: Date; preview: string | null; unread: "increment" | "reset" | "keep" },
) {
  const [row] = await tx
    .update(conversations)
    .set({
      lastMessageAt: sql`greatest(${conversations.lastMessageAt}, ${at.toISOString()}::timestamptz)`,
      // null keeps the preview: an automatic answer never hides what the customer asked.
      lastMessagePreview: preview ?? sql`${conversations.lastMessagePreview}`,
      unreadCount: unread === "increment" ? sql`${conversations.unreadCount} + 1` : unread === "reset" ? 0 : sql`${conversations.unreadCount}`,
      updatedAt: at,
    })
    .where(eq(conversations.id, conversationId))
    .returning();
  return row;
}
