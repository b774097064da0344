import type { Executor } from "@/db";
import { actorOf, recordAudit } from "@/lib/audit/record-audit";
import type { ServiceContext } from "@/lib/auth/context";
import { llmConfig } from "@/lib/platform/llm";
import { ASSISTANT_MIN_SCORE_DEFAULT, type AssistantConfigInput, type AssistantConfigOutput } from "./schemas";
import { findAssistantSettings, upsertAssistantSettings } from "./store";

/** The account's assistant settings; an account that never saved them does not answer by itself. */
export async function loadAssistantSettings(db: Executor, accountId: string): Promise<{ answerOutsideHours: boolean; minScore: number }> {
  const row = await findAssistantSettings(db, accountId);
  return row ? { answerOutsideHours: row.answerOutsideHours, minScore: row.minScore } : { answerOutsideHours: false, minScore: ASSISTANT_MIN_SCORE_DEFAULT };
}

const present = (settings: { answerOutsideHours: boolean; minScore: number }): AssistantConfigOutput => ({
  answer_outside_hours: settings.answerOutsideHours,
  // Stored as a 4-byte real: shown as it was given.
  min_score: Math.round(settings.minScore * 10_000) / 10_000,
  available: llmConfig() !== null,
});

export async function getAssistantConfig({ ctx }: { ctx: ServiceContext }): Promise<AssistantConfigOutput> {
  return present(await loadAssistantSettings(ctx.db, ctx.accountId));
}

export async function updateAssistantConfig({ ctx, input }: { ctx: ServiceContext; input: AssistantConfigInput }): Promise<AssistantConfigOutput> {
  // Kept to four decimals, as it is shown: a score finer than that means nothing, and a single-precision column refuses the tiniest numbers.
  const values = { answerOutsideHours: input.answer_outside_hours, minScore: Math.round(input.min_score * 10_000) / 10_000, updatedAt: new Date() };
  return ctx.db.transaction(async (tx) => {
    const row = await upsertAssistantSettings(tx, ctx.accountId, values);
    await recordAudit(tx, { accountId: ctx.accountId, actor: actorOf(ctx), action: "assistant.updated", target: { type: "account", id: ctx.accountId } });
    return present(row);
  });
}
