import type { LabelRef } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { loadBusinessProfile } from "@/lib/profile/business-profile";
import { isOpenAt } from "@/lib/profile/hours";
import { allConditionsHold } from "./conditions";
import { patternProgramSize } from "./safe-regex";
import { type LoadedFacts, readerOf } from "./facts";
import type { AutomationConditionInput, AutomationPreviewOutput } from "./schemas";
import { findContactsConversationLabels, findLatestInboundOfConversations, findPreviewSample } from "./store";

const PREVIEW_SAMPLE = 1000;
/**
 * The most time a preview spends testing conditions. Any caller with config:read (agents too)
 * can ask for one, so one request must not hold the server: past the budget the preview stops
 * before its next test and answers with what it counted so far, `cut_short: true`.
 */
const PREVIEW_BUDGET_MS = 200;
/**
 * The most pattern work a preview does, counted the same on every machine: each `matches` test
 * costs the text's length × the pattern's compiled size (RE2 matches in time linear in both).
 * 50 million is a thousand 500-character messages under a 100-instruction pattern; the largest
 * allowed pattern over long messages reaches it within a hundred conversations.
 */
const PREVIEW_WORK_BUDGET = 50_000_000;

class BudgetSpent extends Error {}

/**
 * How many of the account's last 1,000 conversations (newest first by creation) the conditions
 * would match, as each stands now: `message.*` is its latest customer message and
 * `business_hours` is judged at its last message (or its creation). Three queries, whatever
 * the sample, and no write. Testing stops when PREVIEW_BUDGET_MS or PREVIEW_WORK_BUDGET is spent: `sampled` is then the
 * conversations fully tested, newest first.
 */
export async function previewAutomation({ ctx, conditions }: { ctx: ServiceContext; conditions: AutomationConditionInput[] }): Promise<AutomationPreviewOutput> {
  const db = ctx.db;
  const rows = await findPreviewSample(db, { accountId: ctx.accountId, limit: PREVIEW_SAMPLE });
  if (rows.length === 0) return { matched: 0, sampled: 0, cut_short: false };
  const ids = rows.map((r) => r.id);
  const fields = new Set(conditions.map((c) => c.field));

  const latest = new Map<string, { text: string | null; language: string | null }>();
  if ([...fields].some((f) => f.startsWith("message."))) {
    const found = await findLatestInboundOfConversations(db, { accountId: ctx.accountId, conversationIds: ids });
    for (const m of found) latest.set(m.conversationId, { text: m.text, language: m.language });
  }

  const labelsByContact = new Map<string, Map<string, LabelRef>>();
  if (fields.has("contact.labels")) {
    const contactIds = [...new Set(rows.map((r) => r.contactId))];
    const labelled = await findContactsConversationLabels(db, { accountId: ctx.accountId, contactIds });
    for (const row of labelled) {
      const seen = labelsByContact.get(row.contactId) ?? new Map<string, LabelRef>();
      for (const label of row.labels) seen.set(label.id, label);
      labelsByContact.set(row.contactId, seen);
    }
  }
  const hours = fields.has("business_hours") ? (await loadBusinessProfile(db, ctx.accountId)).hours : null;

  let matched = 0;
  let sampled = 0;
  // Checked before each condition is read, so the overshoot is one test at most (a pattern's
  // size is bounded when it is saved).
  const deadline = performance.now() + PREVIEW_BUDGET_MS;
  // Per field, the summed size of the patterns tested against it.
  const patternCost = new Map<string, number>();
  for (const c of conditions) {
    if (c.operator === "matches" && c.value !== undefined) patternCost.set(c.field, (patternCost.get(c.field) ?? 0) + patternProgramSize(c.value));
  }
  let work = 0;
  for (const row of rows) {
    if (row.blocked) {
      sampled++;
      continue;
    }
    const facts: LoadedFacts = {
      contactId: row.contactId,
      blocked: row.blocked,
      message: latest.get(row.id) ?? null,
      contact: { name: row.name, phone: row.phone, attributes: row.attributes ?? {} },
      conversation: { status: row.status, assigneeId: row.assigneeId, labels: row.labels ?? [], priority: row.priority, teamId: row.teamId },
    };
    const at = new Date(row.at);
    const readFact = readerOf(db, {
      accountId: ctx.accountId,
      facts,
      at,
      extra: { contactLabels: [...(labelsByContact.get(row.contactId)?.values() ?? [])], businessHours: !hours || isOpenAt({ hours, at }) ? "open" : "closed" },
    });
    const read: typeof readFact = (field) => {
      if (performance.now() > deadline || work > PREVIEW_WORK_BUDGET) throw new BudgetSpent();
      const value = readFact(field);
      const cost = patternCost.get(field);
      if (cost && typeof value === "string") work += value.length * cost;
      return value;
    };
    try {
      if (await allConditionsHold(conditions, read)) matched++;
    } catch (error) {
      if (error instanceof BudgetSpent) return { matched, sampled, cut_short: true };
      throw error;
    }
    sampled++;
  }
  return { matched, sampled, cut_short: false };
}
