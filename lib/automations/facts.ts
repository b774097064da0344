import type { Executor } from "@/db";
import type { LabelRef } from "@/db/schema";
import { loadBusinessProfile } from "@/lib/profile/business-profile";
import { isOpenAt } from "@/lib/profile/hours";
import { attributeKey, type ConversationFacts, type FactReader, fieldReaders } from "./conditions";
import type { ConditionField } from "./schemas";
import { findContactsConversationLabels, findConversationFacts } from "./store";

export type LoadedFacts = ConversationFacts & { contactId: string; blocked: boolean };

type FactsJson = {
  status: string;
  assigneeId: string | null;
  priority: string | null;
  teamId: string | null;
  labels: LabelRef[] | null;
  contactId: string;
  name: string | null;
  phone: string | null;
  attributes: Record<string, string> | null;
  blocked: boolean;
  message: { text: string | null; language: string | null } | null;
};

/** The facts from the value of `findConversationFacts` (or `findRuleVersionAndFacts`) (a JSON string on one driver, parsed on the other). */
export function factsOf(value: unknown): LoadedFacts | null {
  if (value === null || value === undefined) return null;
  const row = (typeof value === "string" ? JSON.parse(value) : value) as FactsJson;
  return {
    contactId: row.contactId,
    blocked: row.blocked,
    message: row.message,
    contact: { name: row.name, phone: row.phone, attributes: row.attributes ?? {} },
    conversation: { status: row.status, assigneeId: row.assigneeId, labels: row.labels ?? [], priority: row.priority ?? null, teamId: row.teamId ?? null },
  };
}

/** The facts of one conversation (see findConversationFacts). */
export async function loadConversationFacts(
  tx: Executor,
  subject: { accountId: string; conversationId: string; messageId?: string },
): Promise<LoadedFacts | null> {
  return factsOf(await findConversationFacts(tx, subject));
}

/** Labels on any of the contact's conversations (contacts carry no labels of their own). */
async function contactLabels(tx: Executor, { accountId, contactId }: { accountId: string; contactId: string }): Promise<LabelRef[]> {
  const rows = await findContactsConversationLabels(tx, { accountId, contactIds: [contactId] });
  const seen = new Map<string, LabelRef>();
  for (const row of rows) for (const label of row.labels) seen.set(label.id, label);
  return [...seen.values()];
}

/** `open` or `closed` at `at` by the business profile's hours; a business without hours is always open. */
async function businessHoursAt(tx: Executor, { accountId, at }: { accountId: string; at: Date }): Promise<"open" | "closed"> {
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
