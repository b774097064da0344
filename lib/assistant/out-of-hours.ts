import type { Executor } from "@/db";
import { detectHoursQuestion } from "@/lib/auto-replies/hours-question";
import { type Language } from "@/lib/platform/language/language";
import { llmConfig } from "@/lib/platform/llm";
import { loadBusinessProfile } from "@/lib/profile/business-profile";
import { isOpenAt } from "@/lib/profile/hours";
import { customerLanguage, retrievePassages } from "@/lib/profile/knowledge";
import { ASSISTANT_PASSAGES, answerFromPassages } from "./answer";
import { loadAssistantSettings } from "./settings";
import { findMessageToAnswer } from "./store";

export type HandoffReason = "asked_for_person" | "below_threshold" | "no_answer" | "ungrounded" | "model_error";

/** What the assistant sends to one message received outside opening hours. */
export type AssistantPlan = { kind: "answer"; text: string } | { kind: "handoff"; text: string; reason: HandoffReason };

/** Said instead of an answer when a person has to answer. */
const personWillAnswer: Record<Language, string> = {
  en: "A person will answer as soon as we open.",
  es: "Una persona te responderá en cuanto abramos.",
  pt: "Uma pessoa vai responder assim que abrirmos.",
};

const plainText = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** "human please", "quiero hablar con una persona", "falar com um atendente"… */
const asksForPersonPattern = new RegExp(
  [
    String.raw`\b(?:human|humans|a person|real person|real people|an agent|a real agent|someone real|an operator|a representative|customer service rep)\b`,
    String.raw`\b(?:una persona|persona real|un humano|humano|un agente|un asesor|asesora?|un operador|operadora?|alguien real)\b`,
    String.raw`\b(?:uma pessoa|pessoa real|um humano|humano|atendente|um agente|um operador|operadora?|alguem real)\b`,
  ].join("|"),
  "u",
);

export function asksForPerson(text: string): boolean {
  return asksForPersonPattern.test(plainText(text));
}

/**
 * Decides the assistant's reply to a stored inbound message, before any transaction (the model
 * may take seconds). Null when the assistant stays silent: no language model, "answer outside
 * opening hours" off, the business is open (or has no hours) when the customer wrote, no text, or
 * an opening-hours question (the hours answer covers it). Otherwise an answer grounded in the
 * business's documents, or, when the customer asks for a person or the assistant is unsure (best
 * passage below the account's threshold, no grounded answer, the model failing), "a person will
 * answer" in the customer's language and a handoff.
 */
export async function planAssistantReply(
  db: Executor,
  { accountId, conversationId, messageId }: { accountId: string; conversationId: string; messageId: string },
): Promise<AssistantPlan | null> {
  const config = llmConfig();
  if (!config) return null;
  const settings = await loadAssistantSettings(db, accountId);
  if (!settings.answerOutsideHours) return null;
  const message = await findMessageToAnswer(db, { accountId, conversationId, messageId });
  if (!message || message.direction !== "inbound" || message.senderType !== "contact" || message.deletedAt || !message.text?.trim()) return null;
  const profile = await loadBusinessProfile(db, accountId);
  if (!profile.hours || isOpenAt({ hours: profile.hours, at: message.createdAt })) return null;
  if (profile.autoReply?.hours_question.enabled && detectHoursQuestion(message.text)) return null;

  const language = await customerLanguage(db, { accountId, text: message.text, stored: message.language });
  const handoff = (reason: HandoffReason): AssistantPlan => ({ kind: "handoff", text: personWillAnswer[language], reason });
  if (asksForPerson(message.text)) return handoff("asked_for_person");
  const passages = await retrievePassages(db, { accountId, text: message.text, language, limit: ASSISTANT_PASSAGES });
  if (passages.length === 0 || passages[0].score < settings.minScore) return handoff("below_threshold");
  const outcome = await answerFromPassages({ config, businessName: profile.name, question: message.text, language, passages });
  if (!outcome.ok) {
    if (outcome.reason !== "no_answer") console.warn(`assistant: handed to a person (${outcome.reason}${outcome.detail ? `: ${outcome.detail}` : ""})`);
    return handoff(outcome.reason);
  }
  return { kind: "answer", text: outcome.answer.text };
}
