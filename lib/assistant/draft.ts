import type { ServiceContext } from "@/lib/auth/context";
import { findConversation } from "@/lib/conversations/store";
import { ApiError } from "@/lib/platform/errors";
import { llmConfig } from "@/lib/platform/llm";
import { loadBusinessProfile } from "@/lib/profile/business-profile";
import { customerLanguage, lastCustomerText, retrievePassages } from "@/lib/profile/knowledge";
import { ASSISTANT_PASSAGES, answerFromPassages } from "./answer";
import type { DraftOutput } from "./schemas";

const noAnswer = () => new ApiError(409, "no_answer", "Nothing in the business's documents answers the customer's last message for sure: write the reply yourself.");

/**
 * "Draft a reply": an answer to the customer's last message written by the configured language
 * model from the passages retrieved for it, with the passages it cites. Nothing is sent. 409
 * `no_answer` when nothing grounded can be said (no question, no passage, the model has no
 * answer, or it states a number, price, date or link no cited passage contains); 409
 * `assistant_off` without a language model; 502 `assistant_unavailable` when the model fails.
 */
export async function draftReply({ ctx, conversationId }: { ctx: ServiceContext; conversationId: string }): Promise<DraftOutput> {
  const db = ctx.db;
  await findConversation(db, { accountId: ctx.accountId, id: conversationId });
  const config = llmConfig();
  if (!config) throw new ApiError(409, "assistant_off", "No language model is configured (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL): drafting is off.");
  const last = await lastCustomerText(db, { accountId: ctx.accountId, conversationId });
  if (!last) throw noAnswer();
  const language = await customerLanguage(db, { accountId: ctx.accountId, text: last.text, stored: last.language });
  const passages = await retrievePassages(db, { accountId: ctx.accountId, text: last.text, language, limit: ASSISTANT_PASSAGES });
  const profile = await loadBusinessProfile(db, ctx.accountId);
  const outcome = await answerFromPassages({ config, businessName: profile.name, question: last.text, language, passages });
  if (!outcome.ok) {
    if (outcome.reason === "model_error") {
      console.warn(`assistant: no draft (${outcome.detail ?? "model error"})`);
      throw new ApiError(502, "assistant_unavailable", "The language model did not answer. Try again.");
    }
    if (outcome.reason === "ungrounded") console.warn(`assistant: draft discarded, not in the cited passages: ${outcome.detail}`);
    throw noAnswer();
  }
  return {
    text: outcome.answer.text,
    sources: outcome.answer.cited.map((passage) => ({ ...passage.source, excerpt: passage.text })),
  };
}
