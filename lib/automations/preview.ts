import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { contacts, conversations, type LabelRef, messages } from "@/db/schema";
import { executorOf, type ServiceContext } from "@/lib/auth/context";
import { loadBusinessProfile } from "@/lib/profile/business-profile";
import { isOpenAt } from "@/lib/profile/hours";
import { allConditionsHold } from "./conditions";
import { type LoadedFacts, readerOf } from "./facts";
import type { AutomationConditionInput, AutomationPreviewOutput } from "./schemas";

export const PREVIEW_SAMPLE = 1000;

/**
 * How many of the account's last 1,000 conversations (newest first by creation) the conditions
 * would match, as each stands now: `message.*` is its latest customer message and
 * `business_hours` is judged at its last message (or its creation). Three queries, whatever
 * the sample, and no write.
 */
export async function previewAutomation({ ctx, conditions }: { ctx: ServiceContext; conditions: AutomationConditionInput[] }): Promise<AutomationPreviewOutput> {
  const db = executorOf(ctx);
  const rows = await db
    .select({
      id: conversations.id,
      status: conversations.status,
      assigneeId: conversations.assignedTo,
      priority: conversations.priority,
      teamId: conversations.teamId,
      labels: conversations.labels,
      at: sql<Date>`coalesce(${conversations.lastMessageAt}, ${conversations.createdAt})`.mapWith(conversations.createdAt),
      contactId: contacts.id,
      name: contacts.name,
      phone: contacts.phone,
      attributes: contacts.attributes,
      blocked: contacts.blocked,
    })
    .from(conversations)
    .innerJoin(contacts, eq(contacts.id, conversations.contactId))
    .where(eq(conversations.accountId, ctx.accountId))
    .orderBy(desc(conversations.createdAt), desc(conversations.id))
    .limit(PREVIEW_SAMPLE);
  if (rows.length === 0) return { matched: 0, sampled: 0 };
  const ids = rows.map((r) => r.id);
  const fields = new Set(conditions.map((c) => c.field));

  const latest = new Map<string, { text: string | null; language: string | null }>();
  if ([...fields].some((f) => f.startsWith("message."))) {
    const found = await db
      .selectDistinctOn([messages.conversationId], { conversationId: messages.conversationId, text: messages.text, language: messages.language })
      .from(messages)
      .where(and(eq(messages.accountId, ctx.accountId), inArray(messages.conversationId, ids), eq(messages.direction, "inbound")))
      .orderBy(messages.conversationId, desc(messages.createdAt), desc(messages.id));
    for (const m of found) latest.set(m.conversationId, { text: m.text, language: m.language });
  }

  const labelsByContact = new Map<string, Map<string, LabelRef>>();
  if (fields.has("contact.labels")) {
    const contactIds = [...new Set(rows.map((r) => r.contactId))];
    const labelled = await db
      .select({ contactId: conversations.contactId, labels: conversations.labels })
      .from(conversations)
      .where(and(eq(conversations.accountId, ctx.accountId), inArray(conversations.contactId, contactIds), sql`${conversations.labels} <> '[]'::jsonb`));
    for (const row of labelled) {
      const seen = labelsByContact.get(row.contactId) ?? new Map<string, LabelRef>();
      for (const label of row.labels) seen.set(label.id, label);
      labelsByContact.set(row.contactId, seen);
    }
  }
  const hours = fields.has("business_hours") ? (await loadBusinessProfile(db, ctx.accountId)).hours : null;

  let matched = 0;
  for (const row of rows) {
    if (row.blocked) continue;
    const facts: LoadedFacts = {
      contactId: row.contactId,
      blocked: row.blocked,
      message: latest.get(row.id) ?? null,
      contact: { name: row.name, phone: row.phone, attributes: row.attributes ?? {} },
      conversation: { status: row.status, assigneeId: row.assigneeId, labels: row.labels ?? [], priority: row.priority, teamId: row.teamId },
    };
    const at = new Date(row.at);
    const read = readerOf(db, {
      accountId: ctx.accountId,
      facts,
      at,
      extra: { contactLabels: [...(labelsByContact.get(row.contactId)?.values() ?? [])], businessHours: !hours || isOpenAt({ hours, at }) ? "open" : "closed" },
    });
    if (await allConditionsHold(conditions, read)) matched++;
  }
  return { matched, sampled: rows.length };
}
