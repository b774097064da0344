import type { Executor } from "@/db";
import { NotFoundError } from "@/lib/platform/errors";
import { type LlmConfig, llmConfig } from "@/lib/platform/llm";
import { loadBusinessProfile } from "@/lib/profile/business-profile";
import { loadDocumentContext } from "@/lib/profile/documents";
import { type Language } from "@/lib/platform/language/language";
import { detectMessageLanguage } from "@/lib/platform/language/detect";
import { type CorrectionContext, prepareSpelling } from "./corrections";
import { detectDraftLanguage, type PolishStyle, polishWithRules } from "./rules";
import { POLISH_TEXT_MAX, type PolishOutput } from "./schemas";
import { findConversationContactName, selectTeamNames } from "./store";

/** The account whose draft is polished, and the executor its business profile and names are read through. */
type Polisher = { accountId: string; db: Executor };

/** The optional engine gets this long in all; after it the rules engine answers. */
const POLISH_LLM_TIMEOUT_MS = 3000;
/** Characters of document text sent as context (about 3,000 tokens), shared between documents. */
const POLISH_DOCUMENTS_BUDGET = 12_000;

const styleInstructions: Record<PolishStyle, string> = {
  concise:
    "concise: make it short and direct. Remove greetings, sign-offs, filler words and hedges (just, actually, I think, basically, la verdad, creo que...). Keep every fact the customer needs.",
  normal:
    "normal: keep the wording and length. Fix spacing, capitalisation, sentence punctuation and spelling, and write out chat abbreviations (u → you, pls → please, thx → thanks, q → que, xq → porque, tb → también...).",
  explanatory:
    "explanatory: keep every detail and make it warm and clear. Open with a courteous greeting that thanks the customer for contacting {business}, explain anything that could be unclear, and close by offering further help, signed as the {business} team.",
};

function buildSystemPrompt({
  businessName,
  description,
  documents,
  style,
  language,
}: {
  businessName: string;
  description: string;
  documents: { filename: string; text: string; truncated: boolean }[];
  style: PolishStyle;
  language: Language;
}): string {
  const lines = [
    `You polish a reply that an employee of ${businessName} is about to send to a customer in a WhatsApp-style chat.`,
    "Rewrite the message in the style below and answer with the rewritten message only: no quotes, no preface, no notes.",
    `The message is in ${languageNames[language]}: answer in ${languageNames[language]} only, with its accents (Portuguese stays Portuguese, never Spanish; Spanish stays Spanish).`,
    "Never change or drop numbers, prices, dates, times, names, order numbers, links, email addresses or phone numbers.",
    "Do not add facts, promises, prices or policies the message does not contain: the business information below is only there so names, products and terms are written correctly.",
    `At most ${POLISH_TEXT_MAX} characters.`,
    "",
    `Style: ${styleInstructions[style].replaceAll("{business}", businessName)}`,
    "",
    `Business name: ${businessName}`,
  ];
  if (description.trim()) lines.push("About the business:", description.trim());
  if (documents.length) {
    lines.push("", "Excerpts of the business's documents:");
    for (const document of documents) {
      lines.push(`--- ${document.filename}${document.truncated ? " (excerpt)" : ""} ---`, document.text);
    }
  }
  return lines.join("\n");
}

const languageNames: Record<Language, string> = { en: "English", es: "Spanish", pt: "Portuguese" };

/** Whether polishing (and the document excerpts it sends) goes to a configured language model. */
export function isLanguageModelConfigured(): boolean {
  return llmConfig() !== null;
}

/** Models sometimes wrap the answer in quotes or a code fence although told not to. */
function unwrapAnswer(content: string): string {
  let text = content.trim();
  const fenced = /^```[\w-]*\n([\s\S]*?)\n```$/.exec(text);
  if (fenced) text = fenced[1].trim();
  const quoted = /^(["“«])([\s\S]*)(["”»])$/.exec(text);
  if (quoted && !/["“”«»]/.test(quoted[2])) text = quoted[2].trim();
  return text;
}

async function polishWithLlm({
  config,
  ctx,
  text,
  style,
  language,
  signal,
}: {
  config: LlmConfig;
  ctx: Polisher;
  text: string;
  style: PolishStyle;
  language: Language;
  signal: AbortSignal;
}): Promise<string> {
  const profile = await loadBusinessProfile(ctx.db, ctx.accountId);
  const documents = await loadDocumentContext(ctx.db, { accountId: ctx.accountId, budget: POLISH_DOCUMENTS_BUDGET });
  const response = await fetch(`${config.baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${config.apiKey}` },
    body: JSON.stringify({
      model: config.model,
      temperature: 0.2,
      messages: [
        { role: "system", content: buildSystemPrompt({ businessName: profile.name, description: profile.description, documents, style, language }) },
        { role: "user", content: text },
      ],
    }),
    signal,
    redirect: "error",
  });
  if (!response.ok) throw new Error(`the polishing endpoint answered ${response.status}`);
  const body = (await response.json()) as { choices?: { message?: { content?: unknown } }[] };
  const content = body.choices?.[0]?.message?.content;
  const answer = typeof content === "string" ? unwrapAnswer(content) : "";
  if (!answer) throw new Error("the polishing endpoint gave an empty answer");
  if (answer.length > POLISH_TEXT_MAX) throw new Error(`the polishing endpoint's answer is over ${POLISH_TEXT_MAX} characters`);
  return answer;
}

/** Capitalised words of a text that do not start a sentence: the places and products a business names. */
function namesIn(text: string): string[] {
  return [...text.matchAll(/(?<![.!?…\n]\s*|^\s*)(?<=[\s(“"'«,;])\p{Lu}[\p{Ll}\p{M}'’-]+(?![\p{L}\p{N}])/gu)].map(([word]) => word);
}

/**
 * What the rules engine needs to write names and the business's own words correctly: the contact of
 * the conversation (when given), the team, the names the business profile writes with a capital, and
 * the business's own words, which no dictionary corrects.
 */
async function loadCorrectionContext({ ctx, conversationId, profile }: { ctx: Polisher; conversationId?: string; profile: { name: string; description: string } }): Promise<CorrectionContext> {
  const names: string[] = [];
  if (conversationId) {
    const row = await findConversationContactName(ctx.db, { accountId: ctx.accountId, conversationId });
    if (!row) throw new NotFoundError("Conversation");
    if (row.name) names.push(row.name);
  }
  names.push(...(await selectTeamNames(ctx.db, ctx.accountId)), ...namesIn(profile.description));
  const knownWords = profile.description.match(/\p{L}[\p{L}\p{M}]+/gu) ?? [];
  return { names, knownWords };
}

/**
 * Polishes a draft reply in one of three styles. The deterministic rules engine answers unless
 * LLM_BASE_URL, LLM_API_KEY and LLM_MODEL (or the older POLISH_LLM_* names) name an
 * OpenAI-compatible chat-completions endpoint; that one gets the business profile and document excerpts as context,
 * and any error, empty or oversized answer, or a wait over 3 s falls back to the rules engine.
 */
export async function polishText({
  ctx,
  text,
  style,
  language: given,
  conversationId,
}: {
  ctx: Polisher;
  text: string;
  style: PolishStyle;
  language?: Language;
  conversationId?: string;
}): Promise<PolishOutput> {
  const profile = await loadBusinessProfile(ctx.db, ctx.accountId);
  const context = await loadCorrectionContext({ ctx, conversationId, profile });
  // Chat drafts are short: the engine's own word lists settle what the detector is unsure of.
  const language = given ?? detectMessageLanguage(text) ?? detectDraftLanguage(text);
  const config = llmConfig();
  if (config) {
    try {
      const polished = await polishWithLlm({ config, ctx, text, style, language, signal: AbortSignal.timeout(POLISH_LLM_TIMEOUT_MS) });
      return { text: polished, style, language, engine: "llm" };
    } catch (error) {
      const reason = error instanceof Error && error.name === "TimeoutError" ? `no answer within ${POLISH_LLM_TIMEOUT_MS} ms` : error instanceof Error ? error.message : String(error);
      console.warn(`polishing: falling back to the rules engine (${reason})`);
    }
  }
  // The dictionary is asked on its own thread; not loaded yet (or slow), the draft is polished without spelling.
  const spelling = await prepareSpelling({ text, language, context });
  const polished = polishWithRules({ text, style, businessName: profile.name, language, context: { ...context, spelling: spelling ?? undefined } });
  return { text: polished || text.trim(), style, language, engine: "rules" };
}
