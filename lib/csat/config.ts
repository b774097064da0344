import { auditChange } from "@/lib/audit/record-audit";
import type { Executor } from "@/db";
import type { ServiceContext } from "@/lib/auth/context";
import { type CsatConfigInput, type CsatConfigOutput, DEFAULT_CSAT_QUESTION } from "./schemas";
import { findCsatSettings, upsertCsatSettings } from "./store";

/** The account's survey settings; an account that never saved them has the survey off. */
export async function loadCsatConfig(db: Executor, accountId: string): Promise<CsatConfigOutput> {
  const row = await findCsatSettings(db, { accountId });
  return row ? { enabled: row.enabled, question: row.question } : { enabled: false, question: DEFAULT_CSAT_QUESTION };
}

export async function getCsatConfig({ ctx }: { ctx: ServiceContext }): Promise<CsatConfigOutput> {
  return loadCsatConfig(ctx.db, ctx.accountId);
}

export async function updateCsatConfig({ ctx, input }: { ctx: ServiceContext; input: CsatConfigInput }): Promise<CsatConfigOutput> {
  const values = { enabled: input.enabled, question: input.question, updatedAt: new Date() };
  const row = await upsertCsatSettings(ctx.db, { accountId: ctx.accountId, values });
  await auditChange(ctx, "settings.survey_updated", { type: "account", id: ctx.accountId });
  return { enabled: row.enabled, question: row.question };
}
