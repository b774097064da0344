import { type Language } from "@/lib/platform/language/language";
import { chatCompletion, type LlmConfig } from "@/lib/platform/llm";
import { type RetrievedPassage } from "@/lib/profile/knowledge";
import { ungroundedFacts } from "./grounding";

/** A local model may be slow; after this the assistant gives up (a person answers). */
const ASSISTANT_LLM_TIMEOUT_MS = 20_000;
/** Passages given to the model. */
export const ASSISTANT_PASSAGES = 5;
/** The longest answer kept (a chat reply, not an essay). */
const ANSWER_MAX = 1_000;

const languageNames: Record<Language, string> = { en: "English", es: "Spanish", pt: "Portuguese" };

type GroundedAnswer = { text: string; cited: RetrievedPassage[] };
export type AnswerOutcome = { ok: true; answer: GroundedAnswer } | { ok: false; reason: "no_answer" | "ungrounded" | "model_error"; detail?: string };

function systemPrompt({ businessName, language, passages }: { businessName: string; language: Language; passages: RetrievedPassage[] }) {
  return [
    `You answer a customer of ${businessName} in a WhatsApp-style chat, in ${languageNames[language]} only.`,
    "Use ONLY the numbered passages below from the business's own documents. If they do not answer the question, or you are unsure, say so by answering with no answer.",
    "Never write a number, price, date, time, link, e-mail or phone number that is not written in a passage you cite. Do not promise anything the passages do not say.",
    "Keep it short and friendly (at most three sentences).",
    'Answer with JSON only: {"answer": "the reply", "sources": [the numbers of the passages you used]} or {"answer": null, "sources": []} when there is no answer.',
    "",
    ...passages.map((passage, index) => `[${index + 1}] ${passage.text}`),
  ].join("\n");
}

/** The model's JSON, tolerating a code fence around it. */
function parseReply(content: string): { answer: string | null; sources: number[] } | null {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/u.exec(content);
  const raw = (fenced ? fenced[1] : content).trim();
  const start = raw.indexOf("{");
  const end = raw.lastIndexOf("}");
  if (start < 0 || end < start) return null;
  try {
    const parsed = JSON.parse(raw.slice(start, end + 1)) as { answer?: unknown; sources?: unknown };
    const answer = typeof parsed.answer === "string" && parsed.answer.trim() ? parsed.answer.trim() : null;
    const sources = Array.isArray(parsed.sources) ? parsed.sources.filter((value): value is number => Number.isInteger(value)) : [];
    return { answer, sources };
  } catch {
    return null;
  }
}

/**
 * Asks the model for an answer to `question` from `passages` and keeps it only when it is
 * grounded: it cites at least one of the given passages, and every number, price, date and link
 * it states appears in a cited passage. Anything else is no answer (a person answers instead).
 */
export async function answerFromPassages({
  config,
  businessName,
  question,
  language,
  passages,
}: {
  config: LlmConfig;
  businessName: string;
  question: string;
  language: Language;
  passages: RetrievedPassage[];
}): Promise<AnswerOutcome> {
  if (passages.length === 0) return { ok: false, reason: "no_answer" };
  let content: string;
  try {
    content = await chatCompletion({
      config,
      signal: AbortSignal.timeout(ASSISTANT_LLM_TIMEOUT_MS),
      messages: [
        { role: "system", content: systemPrompt({ businessName, language, passages }) },
        { role: "user", content: question },
      ],
    });
  } catch (error) {
    return { ok: false, reason: "model_error", detail: error instanceof Error ? error.message : String(error) };
  }
  const reply = parseReply(content);
  if (!reply?.answer || reply.answer.length > ANSWER_MAX) return { ok: false, reason: "no_answer" };
  const cited = [...new Set(reply.sources)].filter((n) => n >= 1 && n <= passages.length).map((n) => passages[n - 1]);
  if (cited.length === 0) return { ok: false, reason: "no_answer" };
  const invented = ungroundedFacts(reply.answer, cited.map((passage) => passage.text));
  if (invented.length) return { ok: false, reason: "ungrounded", detail: invented.join(", ") };
  return { ok: true, answer: { text: reply.answer, cited } };
}

