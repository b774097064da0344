import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { type Contact, contacts, type Conversation, conversations, inboxSettings, media, messages, priorityRank, users } from "@/db/schema";
import { afterCursorPlaceholder } from "@/lib/platform/pagination";
import { NotFoundError } from "@/lib/platform/errors";
import { type ContactIdentity, ensureContactByIdentity } from "@/lib/contacts/identity";
import { newId } from "@/lib/platform/ids";
import type { ConversationWithContact } from "./schemas";

/** Conversations joined with the contact fields their public shape shows. */
export function selectConversations(executor: Executor) {
  return executor
    .select({ conversation: conversations, contact: { id: contacts.id, phone: contacts.phone, networkUserId: contacts.networkUserId, username: contacts.username, name: contacts.name, blocked: contacts.blocked } })
    .from(conversations)
    .innerJoin(contacts, eq(contacts.id, conversations.contactId));
}

export const joinContact = (row: { conversation: typeof conversations.$inferSelect; contact: ConversationWithContact["contact"] }): ConversationWithContact => ({
  ...row.conversation,
  contact: row.contact,
});

/** One conversation of the account (locked for the rest of the transaction when `lock`); 404 otherwise. */
export async function findConversation(executor: Executor, { accountId, id, lock = false }: { accountId: string; id: string; lock?: boolean }) {
  const query = selectConversations(executor)
    .where(and(eq(conversations.accountId, accountId), eq(conversations.id, id)))
    .limit(1);
  const [row] = lock ? await query.for("update", { of: conversations }) : await query;
  if (!row) throw new NotFoundError("Conversation");
  return joinContact(row);
}

/**
 * The contact with this number or business-scoped user id, created when new, and locked until
 * the transaction ends: two messages from one new customer at once then serialise here instead
 * of opening two conversations (see ensureContactByIdentity for how the two ids meet).
 */
export async function ensureContact(tx: Executor, { accountId, phone, userId, username, name }: { accountId: string } & ContactIdentity): Promise<Contact> {
  return ensureContactByIdentity(tx, { accountId, identity: { phone, userId, username, name } });
}

/** Conversations carrying the label (served by the GIN index on conversations.labels). */
export const hasLabel = (labelId: string) => sql`${conversations.labels} @> ${labelPlaceholder(labelId).labels}::jsonb`;
/** `hasLabel` for a statement prepared once: the label comes as the placeholder `labels` (`labelPlaceholder`). */
const hasLabelPlaceholder = () => sql`${conversations.labels} @> ${sql.placeholder("labels")}::jsonb`;
export const labelPlaceholder = (labelId: string) => ({ labels: JSON.stringify([{ id: labelId }]) });

/** The contact's newest conversation in one of `statuses`, locked. */
async function latestOfContact(tx: Executor, { accountId, contactId, statuses }: { accountId: string; contactId: string; statuses: Conversation["status"][] }) {
  const [row] = await tx
    .select()
    .from(conversations)
    .where(and(eq(conversations.accountId, accountId), eq(conversations.contactId, contactId), inArray(conversations.status, statuses)))
    .orderBy(desc(conversations.createdAt), desc(conversations.id))
    .limit(1)
    .for("update");
  return row;
}

/** The contact's conversation that is not closed (open, assigned or snoozed), newest first, locked. */
export const findActiveConversation = (tx: Executor, contact: { accountId: string; contactId: string }) =>
  latestOfContact(tx, { ...contact, statuses: ["open", "assigned", "snoozed"] });

/**
 * The contacts' conversations that are not closed, newest of each, locked: `findActiveConversation`
 * for many contacts in one statement.
 */
export async function findActiveConversations(tx: Executor, { accountId, contactIds }: { accountId: string; contactIds: string[] }) {
  const found = new Map<string, Conversation>();
  if (!contactIds.length) return found;
  const rows = await tx
    .select()
    .from(conversations)
    .where(and(eq(conversations.accountId, accountId), inArray(conversations.contactId, contactIds), inArray(conversations.status, ["open", "assigned", "snoozed"])))
    .orderBy(desc(conversations.createdAt), desc(conversations.id))
    .for("update");
  for (const row of rows) if (!found.has(row.contactId)) found.set(row.contactId, row);
  return found;
}

/** Inserts the contacts' new conversations (`closed` files them away at once), one each. */
export async function insertConversations(tx: Executor, { accountId, contactIds, at, closed }: { accountId: string; contactIds: string[]; at: Date; closed: boolean }) {
  if (!contactIds.length) return [];
  return tx
    .insert(conversations)
    .values(
      contactIds.map((contactId) => ({
        id: newId("conversation", at),
        accountId,
        contactId,
        status: closed ? ("closed" as const) : ("open" as const),
        closedAt: closed ? at : null,
        unreadCount: 0,
        createdAt: at,
        updatedAt: at,
      })),
    )
    .returning();
}

/** Sets a closed conversation open again: `assigned` to its assignee when `keepAssignee`, else `open` and unassigned. */
export async function reopenConversationRow(tx: Executor, { accountId, id, keepAssignee, at }: { accountId: string; id: string; keepAssignee: boolean; at: Date }) {
  const [row] = await tx
    .update(conversations)
    .set(
      keepAssignee
        ? { status: "assigned", closedAt: null, openedAt: at, updatedAt: at }
        : { status: "open", closedAt: null, assignedTo: null, assignedAt: null, openedAt: at, updatedAt: at },
    )
    .where(and(eq(conversations.accountId, accountId), eq(conversations.id, id)))
    .returning();
  return row;
}

/** The contact's most recent closed conversation, locked. */
export async function findLatestClosedConversation(tx: Executor, { accountId, contactId }: { accountId: string; contactId: string }) {
  const [row] = await tx
    .select()
    .from(conversations)
    .where(and(eq(conversations.accountId, accountId), eq(conversations.contactId, contactId), eq(conversations.status, "closed")))
    .orderBy(desc(conversations.createdAt), desc(conversations.id))
    .limit(1)
    .for("update");
  return row;
}

/** Whether the conversation's assignee is still a user of the account (deleted users unassign on deletion). */
export async function assigneeIsLive(tx: Executor, { accountId, userId }: { accountId: string; userId: string | null }) {
  if (!userId) return false;
  const [user] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.id, userId), isNull(users.deletedAt)))
    .limit(1);
  return Boolean(user);
}

/** Deletes the stored media of the given conversation's messages (messages go by cascade). */
export async function deleteConversationMedia(tx: Executor, { accountId, conversationId }: { accountId: string; conversationId: string }) {
  await tx.execute(sql`
    delete from ${media} where ${media.accountId} = ${accountId} and ${media.id} in (
      select ${messages.mediaId} from ${messages}
      where ${and(eq(messages.conversationId, conversationId), isNotNull(messages.mediaId))}
    )`);
}

/** A conversation row by id, locked for the rest of the transaction (its account is the caller's to know). */
export async function lockConversationRow(tx: Executor, { id }: { id: string }) {
  const [row] = await tx.select().from(conversations).where(eq(conversations.id, id)).for("update");
  return row;
}

/** The contact's latest conversation that is not snoozed (open, assigned or closed), locked. */
export const findLatestUnsnoozedConversation = (tx: Executor, contact: { accountId: string; contactId: string }) =>
  latestOfContact(tx, { ...contact, statuses: ["open", "assigned", "closed"] });

/** Inserts an open conversation with its times at `at`, and nothing else (no event, no trail). */
export async function insertOpenConversation(tx: Executor, { accountId, contactId, at }: { accountId: string; contactId: string; at: Date }) {
  const [row] = await tx
    .insert(conversations)
    .values({ id: newId("conversation", at), accountId, contactId, status: "open", unreadCount: 0, createdAt: at, updatedAt: at })
    .returning();
  return row;
}

/** The account's conversation row (without its contact), locked for the rest of the transaction. */
export async function lockAccountConversationRow(tx: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await tx
    .select()
    .from(conversations)
    .where(and(eq(conversations.accountId, accountId), eq(conversations.id, id)))
    .limit(1)
    .for("update");
  return row;
}

/** Updates one conversation's columns by id and returns the row. */
export async function updateConversationRow(tx: Executor, { id, set }: { id: string; set: Partial<typeof conversations.$inferInsert> }) {
  const [row] = await tx.update(conversations).set(set).where(eq(conversations.id, id)).returning();
  return row;
}

// The conversation list

type ListShape = { status: boolean; assignee: "none" | "user" | null; label: boolean; cursor: boolean; team: "none" | "team" | null; priority: "none" | "value" | null; sort: "created" | "priority" };

const activityOf = sql<Date>`coalesce(${conversations.lastMessageAt}, ${conversations.createdAt})`;
const rankOf = priorityRank(conversations.priority);

function buildList(db: Executor, shape: ListShape) {
  return selectConversations(db)
    .where(
      and(
        eq(conversations.accountId, sql.placeholder("accountId")),
        shape.status ? eq(conversations.status, sql.placeholder("status")) : undefined,
        shape.assignee === "none"
          ? isNull(conversations.assignedTo)
          : shape.assignee === "user"
            ? eq(conversations.assignedTo, sql.placeholder("assignedTo"))
            : undefined,
        shape.label ? hasLabelPlaceholder() : undefined,
        shape.team === "none" ? isNull(conversations.teamId) : shape.team === "team" ? eq(conversations.teamId, sql.placeholder("teamId")) : undefined,
        shape.priority === "none"
          ? isNull(conversations.priority)
          : shape.priority === "value"
            ? eq(conversations.priority, sql.placeholder("priority"))
            : undefined,
        shape.cursor
          ? shape.sort === "priority"
            ? // Rank ascending, then latest activity and id descending: past the cursor's row.
              sql`(${rankOf} > ${sql.placeholder("cursorRank")}::int or (${rankOf} = ${sql.placeholder("cursorRank")}::int and (${activityOf}, ${conversations.id}) < (${sql.placeholder("cursorAt")}::timestamptz, ${sql.placeholder("cursorId")})))`
            : afterCursorPlaceholder(conversations, "desc")
          : undefined,
      ),
    )
    .orderBy(...(shape.sort === "priority" ? [asc(rankOf), desc(activityOf), desc(conversations.id)] : [desc(conversations.createdAt), desc(conversations.id)]))
    .limit(sql.placeholder("limit"));
}

// The list statement of each filter combination, built once per database: the list is the
// most frequent read of the inbox and of the API, and building the query is a measurable
// part of answering it.
const listStatements = new WeakMap<Executor, Map<string, ReturnType<ReturnType<typeof buildList>["prepare"]>>>();

function listStatement(db: Executor, shape: ListShape) {
  let byShape = listStatements.get(db);
  if (!byShape) listStatements.set(db, (byShape = new Map()));
  const key = `${shape.status}:${shape.assignee}:${shape.label}:${shape.cursor}:${shape.team}:${shape.priority}:${shape.sort}`;
  let statement = byShape.get(key);
  if (!statement) byShape.set(key, (statement = buildList(db, shape).prepare("conversations_list")));
  return statement;
}

/** The rows of one page of the list: the statement of the filter combination, run with its values. */
export async function listConversationRows(db: Executor, shape: ListShape, values: Record<string, unknown>) {
  return listStatement(db, shape).execute(values);
}

export async function deleteConversationRow(tx: Executor, { id }: { id: string }) {
  await tx.delete(conversations).where(eq(conversations.id, id));
}

/** Assigns the account's conversation to `userId` if it is still open and unassigned; undefined otherwise. */
export async function assignIfWaiting(tx: Executor, { accountId, id, userId, at }: { accountId: string; id: string; userId: string; at: Date }) {
  const [row] = await tx
    .update(conversations)
    .set({ status: "assigned", assignedTo: userId, assignedAt: at, updatedAt: at })
    .where(and(eq(conversations.accountId, accountId), eq(conversations.id, id), eq(conversations.status, "open"), isNull(conversations.assignedTo)))
    .returning();
  return row;
}

/** Records the survey score of the account's conversation, once: undefined when it already has one. */
export async function rateConversationOnce(tx: Executor, { accountId, id, score, at }: { accountId: string; id: string; score: number; at: Date }) {
  const [row] = await tx
    .update(conversations)
    .set({ csatScore: score, csatAt: at })
    .where(and(eq(conversations.accountId, accountId), eq(conversations.id, id), isNull(conversations.csatScore)))
    .returning();
  return row;
}

/** Takes the conversation's typing-indicator slot if none was taken since `since`: one writer wins, across processes too. */
export async function claimTypingIndicatorSlot(tx: Executor, { accountId, id, at, since }: { accountId: string; id: string; at: Date; since: Date }) {
  const [claimed] = await tx
    .update(conversations)
    .set({ typingIndicatorSentAt: at })
    .where(and(eq(conversations.accountId, accountId), eq(conversations.id, id), or(isNull(conversations.typingIndicatorSentAt), lt(conversations.typingIndicatorSentAt, since))))
    .returning({ id: conversations.id });
  return Boolean(claimed);
}

/** Whether the conversation's contact is blocked (undefined: no such conversation, of the account when one is named). */
export async function findConversationContactBlocked(tx: Executor, { accountId, conversationId }: { accountId?: string; conversationId: string }) {
  const [row] = await tx
    .select({ blocked: contacts.blocked })
    .from(conversations)
    .innerJoin(contacts, eq(contacts.id, conversations.contactId))
    .where(and(accountId === undefined ? undefined : eq(conversations.accountId, accountId), eq(conversations.id, conversationId)))
    .limit(1);
  return row?.blocked;
}

/** The network's id of the newest message (not a reaction) the customer sent in the conversation that the network knows. */
export async function findNewestCustomerNetworkId(tx: Executor, { accountId, conversationId }: { accountId: string; conversationId: string }) {
  const [row] = await tx
    .select({ networkMessageId: messages.networkMessageId })
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.conversationId, conversationId), eq(messages.direction, "inbound"), ne(messages.type, "reaction"), isNotNull(messages.networkMessageId)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  return row?.networkMessageId ?? undefined;
}

/** The account's saved inbox settings, if any. */
export async function findInboxSettings(executor: Executor, { accountId }: { accountId: string }) {
  const [row] = await executor.select().from(inboxSettings).where(eq(inboxSettings.accountId, accountId)).limit(1);
  return row;
}

/** Saves the account's inbox settings (those left out keep their value) and returns them. */
export async function upsertInboxSettings(executor: Executor, { accountId, set }: { accountId: string; set: Partial<typeof inboxSettings.$inferInsert> & { updatedAt: Date } }) {
  const [row] = await executor
    .insert(inboxSettings)
    .values({ accountId, ...set })
    .onConflictDoUpdate({ target: inboxSettings.accountId, set })
    .returning();
  return row;
}

/** The account's conversations with these ids, with their contacts (in no particular order). */
export async function findConversationsByIds(db: Executor, { accountId, ids }: { accountId: string; ids: string[] }) {
  return selectConversations(db).where(and(eq(conversations.accountId, accountId), inArray(conversations.id, ids)));
}
