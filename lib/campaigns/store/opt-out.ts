import { and, desc, eq, isNotNull } from "drizzle-orm";
import type { Executor } from "@/db";
import { contacts, messages } from "@/db/schema";

/** The queries of a customer's opt-out from marketing messages. */

/** Sets the contact's `marketing_opt_in` to false. */
export async function optOutContact(db: Executor, { accountId, contactId, at }: { accountId: string; contactId: string; at: Date }) {
  await db
    .update(contacts)
    .set({ marketingOptIn: false, updatedAt: at })
    .where(and(eq(contacts.accountId, accountId), eq(contacts.id, contactId)));
}

/** The language of the customer's latest earlier message in which one was recognised. */
export async function latestInboundLanguage(db: Executor, { accountId, conversationId }: { accountId: string; conversationId: string }) {
  const [row] = await db
    .select({ language: messages.language })
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.conversationId, conversationId), eq(messages.direction, "inbound"), isNotNull(messages.language)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  return row?.language ?? null;
}

/** The number the account's message came from, or undefined when there is no such message. */
export async function findMessageSender(db: Executor, { accountId, messageId }: { accountId: string; messageId: string }) {
  const [row] = await db
    .select({ from: messages.fromNumber })
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.id, messageId)))
    .limit(1);
  return row;
}
