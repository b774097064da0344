import type { SystemContext } from "@/lib/auth/context";
import type { Contact, Conversation } from "@/db/schema";
import { recordActivities, recordActivity } from "@/lib/activity/record-activity";
import type { ActivityActor } from "@/lib/activity/schemas";
import { recordEvent, recordEvents } from "@/lib/events/record-event";
import { type ConversationWithContact, presentConversation } from "./schemas";
import { assigneeIsLive, insertConversations, reopenConversationRow } from "./store";

// Starting and reopening a conversation, as the steps of a larger verb (a customer's message
// arriving, an agent's send, a campaign, a reopen): each records its event and its trail in the
// caller's transaction (`ctx.db`).

/** Starts a conversation; `actor` is who started it (the customer when absent); `closed` files it away at once (a blocked contact's message). */
export async function createConversation(
  ctx: SystemContext,
  { accountId, contact, at, actor, closed = false }: { accountId: string; contact: Contact; at: Date; actor?: ActivityActor; closed?: boolean },
) {
  const [row] = await insertConversations(ctx.db, { accountId, contactIds: [contact.id], at, closed });
  await recordEvent(ctx, { accountId, type: "conversation.created", data: { conversation: presentConversation({ ...row, contact }) } });
  await recordActivity(ctx.db, {
    accountId,
    conversationId: row.id,
    type: "created",
    actor: actor ?? { type: "contact", id: contact.id, name: contact.name },
    at,
  });
  return row;
}

/**
 * `createConversation` for many contacts: one insert and one statement for their trails; each
 * conversation.created event is recorded as one conversation's is.
 */
export async function createConversations(
  ctx: SystemContext,
  { accountId, contacts: list, at, actor, closed = false }: { accountId: string; contacts: Contact[]; at: Date; actor: ActivityActor; closed?: boolean },
) {
  const created = new Map<string, Conversation>();
  if (!list.length) return created;
  const rows = await insertConversations(ctx.db, { accountId, contactIds: list.map((contact) => contact.id), at, closed });
  const byId = new Map(list.map((contact) => [contact.id, contact]));
  for (const row of rows) created.set(row.contactId, row);
  await recordEvents(
    ctx,
    rows.map((row) => ({ accountId, type: "conversation.created" as const, data: { conversation: presentConversation({ ...row, contact: byId.get(row.contactId)! }) } })),
  );
  await recordActivities(
    ctx.db,
    rows.map((row) => ({ accountId, conversationId: row.id, type: "created" as const, actor, at })),
  );
  return created;
}

/**
 * Reopens a closed conversation in place: `assigned` when its assignee is still a user of the
 * account, else `open`. `user` is who reopened it (absent when a customer's message did).
 */
export async function reopenClosedConversation(
  ctx: SystemContext,
  {
    accountId,
    conversation,
    contact,
    user,
  }: { accountId: string; conversation: Conversation; contact: ConversationWithContact["contact"]; user?: { id: string; name: string } & Record<string, unknown> },
) {
  const keepAssignee = await assigneeIsLive(ctx.db, { accountId, userId: conversation.assignedTo });
  const now = new Date();
  const row = await reopenConversationRow(ctx.db, { accountId, id: conversation.id, keepAssignee, at: now });
  await recordEvent(ctx, {
    accountId,
    type: "conversation.reopened",
    data: { conversation: presentConversation({ ...row, contact }), ...(user ? { user } : {}) },
  });
  await recordActivity(ctx.db, {
    accountId,
    conversationId: row.id,
    type: "reopened",
    actor: user ? { type: "user", id: user.id, name: user.name } : { type: "contact", id: contact.id, name: contact.name },
    at: now,
  });
  return row;
}
