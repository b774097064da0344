import type { Executor } from "@/db";
import type { CampaignAudience, CampaignCost, CampaignTemplate } from "@/db/schema";
import { findContactIds, someContactHasAttribute } from "@/lib/contacts/store";
import { findLabels } from "@/lib/labels/store";
import { invalidField } from "@/lib/platform/errors";
import { estimatePrice } from "@/lib/pricing/estimate";
import { loadPricing } from "@/lib/pricing/pricing";
import { prepareTemplateSend } from "@/lib/templates/prepare-send";
import { findTemplateCategory } from "@/lib/templates/store";
import { audienceCondition, countAudience, eligiblePhones, sampleAudience, skipReasonSql } from "./store/audience";

/** Labels and contacts the audience names must be the account's (else 400 naming the first unknown one). */
export async function checkAudience(db: Executor, accountId: string, audience: CampaignAudience) {
  if (audience.label_ids?.length) {
    const found = await findLabels(db, { accountId, ids: audience.label_ids });
    const known = new Set(found.map((l) => l.id));
    const unknown = audience.label_ids.findIndex((id) => !known.has(id));
    if (unknown >= 0) throw invalidField(`audience.label_ids.${unknown}`, "is not a label of this account");
  }
  if (audience.contact_ids?.length) {
    const known = new Set<string>();
    // In slices: a list of thousands stays a handful of statements.
    for (let i = 0; i < audience.contact_ids.length; i += 1000) {
      const slice = audience.contact_ids.slice(i, i + 1000);
      const found = await findContactIds(db, { accountId, ids: slice });
      for (const row of found) known.add(row.id);
    }
    const unknown = audience.contact_ids.findIndex((id) => !known.has(id));
    if (unknown >= 0) throw invalidField(`audience.contact_ids.${unknown}`, "is not a contact of this account");
  }
}

/**
 * The template must exist, be APPROVED (else 409 `template_not_approved`) and get one variable
 * per body placeholder; an attribute a variable reads must be held by some contact of the
 * account (else 400 naming it: a typo would otherwise skip everyone). Returns its category.
 */
export async function checkTemplate(db: Executor, accountId: string, template: CampaignTemplate) {
  await prepareTemplateSend(db, { accountId, template: { name: template.name, language: template.language, variables: template.variables.map(() => "x") } });
  for (const [index, variable] of template.variables.entries()) {
    const key = attributeKeyOf(variable.source);
    if (key === null) continue;
    if (!(await someContactHasAttribute(db, { accountId, key }))) throw invalidField(`template.variables.${index}.source`, `no contact of this account has the attribute ${key}`);
  }
  return templateCategory(db, accountId, template);
}

export async function templateCategory(db: Executor, accountId: string, template: { name: string; language: string }) {
  return findTemplateCategory(db, { accountId, name: template.name, language: template.language });
}

const attributeKeyOf = (source: string) => (source.startsWith("contact.attributes.") ? source.slice("contact.attributes.".length) : null);

/** A variable's value for one contact; null when the contact has none (the recipient is skipped). */
export function variableValue(variable: { source: string; value?: string }, contact: { name: string | null; phone: string | null; attributes: Record<string, string> }): string | null {
  if (variable.source === "literal") return variable.value ?? null;
  if (variable.source === "contact.name") return contact.name?.trim() || null;
  if (variable.source === "contact.phone") return contact.phone;
  const key = attributeKeyOf(variable.source);
  const value = key === null ? undefined : contact.attributes?.[key];
  return value?.trim() ? value : null;
}

/** The audience now: how many, how many would be messaged, why the others would not, and a sample. */
export async function summarizeAudience(db: Executor, { accountId, audience, requireOptIn }: { accountId: string; audience: CampaignAudience; requireOptIn: boolean }) {
  const where = audienceCondition(accountId, audience);
  const reason = skipReasonSql(requireOptIn);
  const totals = await countAudience(db, { where, reason });
  const sample = await sampleAudience(db, { where, reason });
  const skipped = { no_consent: Number(totals.no_consent), opted_out: Number(totals.opted_out), blocked: Number(totals.blocked) };
  const count = Number(totals.count);
  return {
    count,
    eligible: count - skipped.no_consent - skipped.opted_out - skipped.blocked,
    skipped,
    sample: sample.map((c) => ({ id: c.id, name: c.name, phone: c.phone, eligible: c.reason === null })),
  };
}

/**
 * What messaging these numbers would cost by the account's price table for the template's
 * category: the sum of one message each; numbers whose country has no price are counted apart.
 */
export async function estimateCost(db: Executor, { accountId, category, phones }: { accountId: string; category: string; phones: (string | null)[] }): Promise<CampaignCost> {
  const table = await loadPricing(db, accountId);
  let amount = 0;
  let priced = 0;
  let unpriced = 0;
  const byPrefix = new Map<string, number | null>();
  for (const phone of phones) {
    if (!phone) {
      unpriced++;
      continue;
    }
    // Calling codes are 1 to 3 digits: the first 4 digits decide the price.
    const key = phone.slice(0, 4);
    let price = byPrefix.get(key);
    if (price === undefined) {
      price = estimatePrice({ table, to: phone, category })?.price ?? null;
      byPrefix.set(key, price);
    }
    if (price === null) unpriced++;
    else {
      amount += price;
      priced++;
    }
  }
  return { amount: Math.round(amount * 10_000) / 10_000, currency: table.currency, priced, unpriced };
}

/** The estimate for the audience's eligible contacts now. */
export async function estimateAudienceCost(db: Executor, { accountId, audience, requireOptIn, category }: { accountId: string; audience: CampaignAudience; requireOptIn: boolean; category: string }) {
  const phones = await eligiblePhones(db, { accountId, audience, requireOptIn });
  return estimateCost(db, { accountId, category, phones });
}
