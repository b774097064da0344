import type { Executor } from "@/db";
import { auditChange } from "@/lib/audit/record-audit";
import type { ServiceContext } from "@/lib/auth/context";
import { invalidField } from "@/lib/platform/errors";
import { findCampaignSettings, upsertCampaignSettings } from "./store/settings";
import { type CampaignSettingsInput, type CampaignSettingsOutput, DEFAULT_MESSAGES_PER_SECOND, DEFAULT_OPT_OUT_KEYWORDS } from "./schemas";

/** The account's campaign settings, or the defaults (80 per second, opt-in required, STOP BAJA PARAR SAIR). */
export async function loadCampaignSettings(db: Executor, accountId: string): Promise<CampaignSettingsOutput> {
  const row = await findCampaignSettings(db, accountId);
  if (!row) return { messages_per_second: DEFAULT_MESSAGES_PER_SECOND, require_opt_in: true, opt_out_keywords: [...DEFAULT_OPT_OUT_KEYWORDS] };
  return { messages_per_second: row.messagesPerSecond, require_opt_in: row.requireOptIn, opt_out_keywords: row.optOutKeywords };
}

export const getCampaignSettings = ({ ctx }: { ctx: ServiceContext }) => loadCampaignSettings(ctx.db, ctx.accountId);

/** Changes the fields given; the others keep their value. Keywords are stored as typed, without repeats (compared ignoring case and accents). */
export async function updateCampaignSettings({ ctx, input }: { ctx: ServiceContext<"user" | "token">; input: CampaignSettingsInput }) {
  const current = await loadCampaignSettings(ctx.db, ctx.accountId);
  const keywords = input.opt_out_keywords ?? current.opt_out_keywords;
  const seen = new Map<string, number>();
  keywords.forEach((keyword, index) => {
    const key = normalizeKeyword(keyword);
    if (!key) throw invalidField(`opt_out_keywords.${index}`, "must hold a letter or digit");
    if (seen.has(key)) throw invalidField(`opt_out_keywords.${index}`, `repeats ${keywords[seen.get(key)!]}`);
    seen.set(key, index);
  });
  const next: CampaignSettingsOutput = {
    messages_per_second: input.messages_per_second ?? current.messages_per_second,
    require_opt_in: input.require_opt_in ?? current.require_opt_in,
    opt_out_keywords: keywords,
  };
  const now = new Date();
  const values = { messagesPerSecond: next.messages_per_second, requireOptIn: next.require_opt_in, optOutKeywords: next.opt_out_keywords, updatedAt: now };
  await upsertCampaignSettings(ctx.db, ctx.accountId, values);
  await auditChange(ctx, "settings.campaigns_updated", { type: "account", id: ctx.accountId });
  return next;
}

/** A keyword as compared: trimmed, upper-cased, without accents or punctuation around it. */
export function normalizeKeyword(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .trim()
    .replace(/^[\p{P}\p{S}\s]+|[\p{P}\p{S}\s]+$/gu, "")
    .toUpperCase();
}
