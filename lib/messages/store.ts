import { createHash } from "node:crypto";
import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { type Executor, rowsOf } from "@/db";
import { businessProfiles, type Conversation, conversations, earlyStatuses, media, type Message, type MessageReaction, type MessageRevision, messageSendAttempts, messages } from "@/db/schema";
import type { Language } from "@/lib/platform/language/language";
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

/**
 * Records a message from the past (imported history) on its conversation: the preview follows
 * the newest message, so an older one leaves it; the latest time never goes back.
 */
export async function touchConversationWithPast(tx: Executor, { conversationId, at, preview }: { conversationId: string; at: Date; preview: string | null }) {
  await tx
    .update(conversations)
    .set({
      lastMessagePreview: sql`case when ${conversations.lastMessageAt} is null or ${conversations.lastMessageAt} <= ${at.toISOString()}::timestamptz then ${preview} else ${conversations.lastMessagePreview} end`,
      lastMessageAt: sql`greatest(${conversations.lastMessageAt}, ${at.toISOString()}::timestamptz)`,
    })
    .where(eq(conversations.id, conversationId));
}

/** The preview an inbox row shows, when its latest message changed (edited or deleted). */
export async function setConversationPreview(tx: Executor, { conversationId, preview, at }: { conversationId: string; preview: string; at: Date }) {
  await tx.update(conversations).set({ lastMessagePreview: preview, updatedAt: at }).where(eq(conversations.id, conversationId));
}

/** The customer-service window: free-form messages are allowed this long after the customer's last message. */
const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Moves the conversation's window to the customer's message + 24 h (never backwards). */
export async function openServiceWindow(tx: Executor, { conversationId, sentAt }: { conversationId: string; sentAt: Date }): Promise<Conversation> {
  const until = new Date(Math.min(sentAt.getTime(), Date.now()) + SERVICE_WINDOW_MS).toISOString();
  const [row] = await tx
    .update(conversations)
    .set({ serviceWindowExpiresAt: sql`greatest(${conversations.serviceWindowExpiresAt}, ${until}::timestamptz)` })
    .where(eq(conversations.id, conversationId))
    .returning();
  return row;
}

/** When the conversation's customer-service window closes (null: the customer never wrote). */
export async function findServiceWindow(tx: Executor, { conversationId }: { conversationId: string }) {
  const [row] = await tx.select({ expiresAt: conversations.serviceWindowExpiresAt }).from(conversations).where(eq(conversations.id, conversationId));
  return row?.expiresAt ?? null;
}

/** A message named by the network's id (cloud webhook) or by Chorus's id (the sandbox). */
export type MessageLookup = { networkMessageId?: string; messageId?: string };

/**
 * Finds a message of the account by either id; `contactPhone` limits it to messages exchanged
 * with that customer, known by any of their addresses (a customer can only quote or react to
 * their own conversations).
 */
export async function lookupMessage(
  tx: Executor,
  { accountId, lookup, contactPhone }: { accountId: string; lookup: MessageLookup; contactPhone?: string | string[] },
) {
  const byId = lookup.messageId
    ? eq(messages.id, lookup.messageId)
    : lookup.networkMessageId
      ? eq(messages.networkMessageId, lookup.networkMessageId)
      : undefined;
  if (!byId) return undefined;
  const [row] = await tx
    .select({ id: messages.id, conversationId: messages.conversationId, fromNumber: messages.fromNumber, toNumber: messages.toNumber, direction: messages.direction })
    .from(messages)
    .where(and(eq(messages.accountId, accountId), byId))
    .limit(1);
  if (!row) return undefined;
  const addresses = typeof contactPhone === "string" ? [contactPhone] : contactPhone;
  if (addresses && !addresses.includes(row.direction === "inbound" ? row.fromNumber : row.toNumber)) return undefined;
  return row;
}

/** The fields of a message of the account that the checks of a quote or a reaction read. */
export async function findMessageSummary(tx: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await tx
    .select({ id: messages.id, conversationId: messages.conversationId, type: messages.type, deletedAt: messages.deletedAt })
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.id, id)))
    .limit(1);
  return row;
}

/** Sets (or, with an empty emoji, removes) one person's reaction on a message. */
export async function setReaction(tx: Executor, { messageId, reaction }: { messageId: string; reaction: MessageReaction }) {
  const [row] = await tx.select({ reactions: messages.reactions }).from(messages).where(eq(messages.id, messageId)).for("update");
  const others = (row?.reactions ?? []).filter((r) => r.from !== reaction.from);
  const next = reaction.emoji ? [...others, reaction] : others;
  await tx
    .update(messages)
    .set({ reactions: next.length > 0 ? next : null, updatedAt: new Date() })
    .where(eq(messages.id, messageId));
}

/** Whether this message is its conversation's latest (whose words the inbox row shows). */
export async function isLatestMessage(tx: Executor, { conversationId, id }: { conversationId: string; id: string }) {
  const [latest] = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  return latest?.id === id;
}

/** The media bytes of a message of the account, with what a download names them by. */
export async function findMessageMedia(executor: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await executor
    .select({ type: messages.type, bytes: media.bytes, mimeType: media.mimeType, filename: media.filename })
    .from(messages)
    .innerJoin(media, eq(media.id, messages.mediaId))
    .where(and(eq(messages.accountId, accountId), eq(messages.id, id)))
    .limit(1);
  return row;
}

/** A stored file by id (bytes included), for sending; of the account when one is named. */
export async function findMedia(executor: Executor, { accountId, id }: { accountId?: string; id: string }) {
  const [row] = await executor
    .select()
    .from(media)
    .where(and(accountId === undefined ? undefined : eq(media.accountId, accountId), eq(media.id, id)))
    .limit(1);
  return row;
}

/**
 * Erases a message's words and file for good, leaving a tombstone with `deleted_at`; `history`
 * is what the message had (a customer's deletion keeps it for admins).
 */
export async function eraseMessage(
  tx: Executor,
  { accountId, message, at, now, history }: { accountId: string; message: { id: string; mediaId: string | null }; at: Date; now: Date; history?: MessageRevision[] },
) {
  await tx
    .update(messages)
    .set({ text: null, mediaId: null, content: null, deletedAt: at, ...(history ? { history } : {}), updatedAt: now })
    .where(eq(messages.id, message.id));
  if (message.mediaId) await tx.delete(media).where(and(eq(media.id, message.mediaId), eq(media.accountId, accountId)));
}

/** A customer's edit of their message: the new text, when, and what it said before. */
export async function editMessageText(tx: Executor, { id, text, at, history, now }: { id: string; text: string | null; at: Date; history: MessageRevision[]; now: Date }) {
  await tx.update(messages).set({ text, editedAt: at, history, updatedAt: now }).where(eq(messages.id, id));
}

/** A new caption for a stored file of the account. */
export async function setMediaCaption(tx: Executor, { accountId, id, caption }: { accountId: string; id: string; caption: string }) {
  await tx.update(media).set({ caption }).where(and(eq(media.id, id), eq(media.accountId, accountId)));
}

/** The account's outbound message by our id or the network's, with what a status update reads. */
export async function findOutboundForStatus(tx: Executor, { accountId, messageId, networkMessageId }: { accountId: string; messageId?: string; networkMessageId?: string }) {
  const [row] = await tx
    .select({ id: messages.id, toNumber: messages.toNumber, pricing: messages.pricing })
    .from(messages)
    .where(
      and(
        eq(messages.accountId, accountId),
        eq(messages.direction, "outbound"),
        messageId ? eq(messages.id, messageId) : eq(messages.networkMessageId, networkMessageId ?? ""),
      ),
    )
    .limit(1);
  return row;
}

/** Updates one message's columns by id and returns the row. */
export async function updateMessage(tx: Executor, { id, set }: { id: string; set: Partial<typeof messages.$inferInsert> }) {
  const [row] = await tx.update(messages).set(set).where(eq(messages.id, id)).returning();
  return row;
}

/** Updates a message still queued (a send's outcome); undefined when it no longer is. */
export async function updateQueuedMessage(tx: Executor, { id, set }: { id: string; set: Partial<typeof messages.$inferInsert> }) {
  const [row] = await tx
    .update(messages)
    .set(set)
    .where(and(eq(messages.id, id), eq(messages.status, "queued")))
    .returning();
  return row;
}

/**
 * `updateQueuedMessage` to `sent` for many messages of the account in one statement, each with
 * its network id; returns the ids of those that were still queued.
 */
export async function markQueuedMessagesSent(tx: Executor, { accountId, sent, at }: { accountId: string; sent: { id: string; network_message_id: string }[]; at: Date }) {
  return rowsOf<{ id: string }>(
    await tx.execute(sql`update ${messages} set status = 'sent', network_message_id = x.network_message_id, error = null, updated_at = ${at.toISOString()}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(sent)}::jsonb) as x(id text, network_message_id text)
      where ${messages.id} = x.id and ${messages.accountId} = ${accountId} and ${messages.status} = 'queued'
      returning ${messages.id}`),
  );
}

/**
 * One outbound message of the account that has no network id yet and is `queued` (its send's
 * answer not recorded yet) or failed `interrupted` (its send was cut short): `sent`, with the
 * network's id. Returns the row, or undefined when no such message is there.
 */
export async function markReachedNetwork(tx: Executor, { accountId, id, networkMessageId, at }: { accountId: string; id: string; networkMessageId: string; at: Date }) {
  const [row] = await tx
    .update(messages)
    .set({ status: "sent", networkMessageId, error: null, updatedAt: at })
    .where(
      and(
        eq(messages.accountId, accountId),
        eq(messages.id, id),
        eq(messages.direction, "outbound"),
        isNull(messages.networkMessageId),
        sql`(${messages.status} = 'queued' or (${messages.status} = 'failed' and ${messages.error} ->> 'code' = 'interrupted'))`,
      ),
    )
    .returning();
  return row;
}

/** A message row by id, whichever account (a job's payload names it). */
export async function findMessageRow(executor: Executor, { id }: { id: string }): Promise<Message | undefined> {
  const [row] = await executor.select().from(messages).where(eq(messages.id, id)).limit(1);
  return row;
}

/** Message rows of the account by id. */
export async function findMessageRows(tx: Executor, { accountId, ids }: { accountId: string; ids: string[] }) {
  return tx.select().from(messages).where(and(eq(messages.accountId, accountId), inArray(messages.id, ids)));
}

/** The network's id of a message of the account (undefined until it was sent). */
export async function findNetworkId(db: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await db
    .select({ networkMessageId: messages.networkMessageId })
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.id, id)))
    .limit(1);
  return row?.networkMessageId ?? undefined;
}

/** What the sandbox's status report reads of a message, whichever account. */
export async function findMessageForSandbox(db: Executor, { id }: { id: string }) {
  const [row] = await db.select({ accountId: messages.accountId, type: messages.type, content: messages.content }).from(messages).where(eq(messages.id, id)).limit(1);
  return row;
}

/**
 * The language of the customer's latest message in the conversation whose language is known,
 * else the business's language (null when neither is).
 */
export async function findConversationLanguage(db: Executor, { accountId, conversationId }: { accountId: string; conversationId: string }): Promise<Language | null> {
  const [last] = await db
    .select({ language: messages.language })
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.conversationId, conversationId), eq(messages.direction, "inbound"), isNotNull(messages.language)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  if (last?.language) return last.language;
  const [profile] = await db.select({ language: businessProfiles.language }).from(businessProfiles).where(eq(businessProfiles.accountId, accountId)).limit(1);
  return profile?.language ?? null;
}

/** A status the network reported for a network id no message carries yet. */
export async function insertEarlyStatus(
  tx: Executor,
  { accountId, networkMessageId, status, error }: { accountId: string; networkMessageId: string; status: (typeof earlyStatuses.$inferInsert)["status"]; error?: { code: string; message: string } },
) {
  await tx.insert(earlyStatuses).values({ accountId, networkMessageId, status, error: error ?? null, createdAt: new Date() });
}

/** The statuses kept for this network id, in arrival order. */
export async function findEarlyStatuses(tx: Executor, { accountId, networkMessageId }: { accountId: string; networkMessageId: string }) {
  return tx
    .select()
    .from(earlyStatuses)
    .where(and(eq(earlyStatuses.accountId, accountId), eq(earlyStatuses.networkMessageId, networkMessageId)))
    .orderBy(asc(earlyStatuses.id));
}

/** Of these network ids, those with statuses kept. */
export async function findNetworkIdsWithEarlyStatuses(tx: Executor, { accountId, networkMessageIds }: { accountId: string; networkMessageIds: string[] }) {
  return tx
    .selectDistinct({ networkMessageId: earlyStatuses.networkMessageId })
    .from(earlyStatuses)
    .where(and(eq(earlyStatuses.accountId, accountId), inArray(earlyStatuses.networkMessageId, networkMessageIds)));
}

export async function deleteEarlyStatuses(tx: Executor, { ids }: { ids: number[] }) {
  await tx.delete(earlyStatuses).where(inArray(earlyStatuses.id, ids));
}

/**
 * Records, in a statement of its own committed before the network is called, that the send of
 * a message starts. The Cloud API has no idempotency key: a send whose answer was never recorded
 * (the process died between the two) may have reached the customer, so it is never repeated.
 * Returns false when an earlier attempt started and never recorded its answer.
 */
export async function startSendAttempt(db: Executor, message: Pick<Message, "id" | "accountId">): Promise<boolean> {
  const started = await db
    .insert(messageSendAttempts)
    .values({ messageId: message.id, accountId: message.accountId, startedAt: new Date() })
    .onConflictDoNothing()
    .returning({ messageId: messageSendAttempts.messageId });
  return started.length > 0;
}

/** The send's answer is recorded, or the network did not take it: a later attempt may send it. */
export async function endSendAttempt(db: Executor, { accountId, messageId }: { accountId: string; messageId: string }) {
  await db.delete(messageSendAttempts).where(and(eq(messageSendAttempts.accountId, accountId), eq(messageSendAttempts.messageId, messageId)));
}

/** The language of the customer's latest message in the conversation in which one was recognised (null when none was). */
export async function findLatestInboundLanguage(db: Executor, { accountId, conversationId }: { accountId: string; conversationId: string }) {
  const [row] = await db
    .select({ language: messages.language })
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.conversationId, conversationId), eq(messages.direction, "inbound"), isNotNull(messages.language)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  return row?.language ?? null;
}

/** Fails those of these messages that are still queued, with the error. */
export async function failQueuedMessages(tx: Executor, { ids, error, at }: { ids: string[]; error: { code: string; message: string }; at: Date }) {
  await tx
    .update(messages)
    .set({ status: "failed", error, updatedAt: at })
    .where(and(inArray(messages.id, ids), eq(messages.status, "queued")));
}

/** Whether a person (not the network, a bot or an automation) ever sent a message in the conversation. */
export async function hasPersonReplied(tx: Executor, { conversationId }: { conversationId: string }) {
  const [row] = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.direction, "outbound"), eq(messages.senderType, "user")))
    .limit(1);
  return Boolean(row);
}

/** The customer's newest text message in the conversation that was not deleted, or undefined. */
export async function findLastCustomerText(db: Executor, { accountId, conversationId }: { accountId: string; conversationId: string }) {
  const [last] = await db
    .select({ id: messages.id, text: messages.text, language: messages.language, createdAt: messages.createdAt })
    .from(messages)
    .where(
      and(
        eq(messages.accountId, accountId),
        eq(messages.conversationId, conversationId),
        eq(messages.direction, "inbound"),
        eq(messages.type, "text"),
        isNull(messages.deletedAt),
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  return last;
}
