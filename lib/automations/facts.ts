import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { contacts, conversations, type LabelRef, messages } from "@/db/schema";
import { loadBusinessProfile } from "@/lib/profile/business-profile";
import { isOpenAt } from "@/lib/profile/hours";
import { attributeKey, type ConversationFacts, type FactReader, fieldReaders } from "./conditions";
import type { ConditionField } from "./schemas";

export type LoadedFacts = ConversationFacts & { contactId: string; blocked: boolean };

/**
 * The facts of one conversation, as the conditions see them: the conversation, its contact and
 * the message the event is about (or, without one, the conversation's latest customer message).
 */
export async function loadConversationFacts(
  tx: Executor,
  { accountId, conversationId, messageId }: { accountId: string; conversationId: string; messageId?: string },
): Promise<LoadedFacts | null> {
  // One query: the conversation, its contact and the message (the one the event names, else
  // the latest from the customer), since this runs inside every triggering event.
  const message = messageId
    ? sql`(select m.text from ${messages} m where m.account_id = ${accountId} and m.id = ${messageId})`
    : sql`(select m.text from ${messages} m where m.account_id = ${accountId} and m.conversation_id = ${conversationId} and m.direction = 'inbound' order by m.created_at desc, m.id desc limit 1)`;
  const language = messageId
    ? sql`(select m.language from ${messages} m where m.account_id = ${accountId} and m.id = ${messageId})`
    : sql`(select m.language from ${messages} m where m.account_id = ${accountId} and m.conversation_id = ${conversationId} and m.direction = 'inbound' order by m.created_at desc, m.id desc limit 1)`;
  const [row] = await tx
    .select({
      status: conversations.status,
      assigneeId: conversations.assignedTo,
      labels: conversations.labels,
      contactId: contacts.id,
      name: contacts.name,
      phone: contacts.phone,
      attributes: contacts.attributes,
      blocked: contacts.blocked,
      text: sql<string | null>`${message}`,
      language: sql<string | null>`${language}`,
    })
    .from(conversations)
    .innerJoin(contacts, eq(contacts.id, conversations.contactId))
    .where(and(eq(conversations.accountId, accountId), eq(conversations.id, conversationId)))
    .limit(1);
  if (!row) return null;
  return {
    contactId: row.contactId,
    blocked: row.blocked,
    message: row.text === null && row.language === null ? null : { text: row.text, language: row.language },
    contact: { name: row.name, phone: row.phone, attributes: row.attributes ?? {} },
    conversation: { status: row.status, assigneeId: row.assigneeId, labels: row.labels ?? [] },
  };
}

/** Labels on any of the contact's conversations (contacts carry no labels of their own). */
export async function contactLabels(tx: Executor, { accountId, contactId }: { accountId: string; contactId: string }): Promise<LabelRef[]> {
  const rows = await tx
    .select({ labels: conversations.labels })
    .from(conversations)
    .where(and(eq(conversations.accountId, accountId), eq(conversations.contactId, contactId), sql`${conversations.labels} <> '[]'::jsonb`));
  const seen = new Map<string, LabelRef>();
  for (const row of rows) for (const label of row.labels) seen.set(label.id, label);
  return [...seen.values()];
}

/** `open` or `closed` at `at` by the business profile's hours; a business without hours is always open. */
export async function businessHoursAt(tx: Executor, { accountId, at }: { accountId: string; at: Date }): Promise<"open" | "closed"> {
  const profile = await loadBusinessProfile(tx, accountId);
  if (!profile.hours) return "open";
  return isOpenAt({ hours: profile.hours, at }) ? "open" : "closed";
}

/**
 * Reads fields from loaded facts; contact labels and business hours are loaded on first use
 * (`extra` may provide them already, as the preview does for many conversations at once).
 */
export function readerOf(
  tx: Executor,
  { accountId, facts, at, extra = {} }: { accountId: string; facts: LoadedFacts; at: Date; extra?: { contactLabels?: LabelRef[]; businessHours?: "open" | "closed" } },
): FactReader {
  let labels: Promise<LabelRef[]> | undefined = extra.contactLabels ? Promise.resolve(extra.contactLabels) : undefined;
  let hours: Promise<"open" | "closed"> | undefined = extra.businessHours ? Promise.resolve(extra.businessHours) : undefined;
  return (field: ConditionField) => {
    const key = attributeKey(field);
    if (key !== null) return facts.contact.attributes[key] ?? null;
    if (field === "contact.labels") return (labels ??= contactLabels(tx, { accountId, contactId: facts.contactId }));
    if (field === "business_hours") return (hours ??= businessHoursAt(tx, { accountId, at }));
    return fieldReaders[field as keyof typeof fieldReaders](facts);
  };
}
