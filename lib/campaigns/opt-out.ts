import { z } from "zod";
import type { Tx } from "@/db";
import type { Conversation, Message } from "@/db/schema";
import { optOutOfMarketing } from "@/lib/contacts/store";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { defineJob, type PayloadOf } from "@/lib/jobs/define";
import { findLatestInboundLanguage, findMessageRows } from "@/lib/messages/store";
import { loadCampaignSettings, normalizeKeyword } from "./settings";


type Language = "en" | "es" | "pt";

/** The language each default keyword belongs to (PARAR is also Spanish: the customer's own language decides first). */
const KEYWORD_LANGUAGE: Record<string, Language> = { STOP: "en", BAJA: "es", PARAR: "pt", SAIR: "pt" };

export const OPT_OUT_CONFIRMATIONS: Record<Language, string> = {
  en: "You will no longer receive marketing messages from us. You can still write to us here whenever you need help.",
  es: "Ya no recibirás mensajes promocionales nuestros. Puedes seguir escribiéndonos por aquí cuando necesites ayuda.",
  pt: "Você não receberá mais mensagens promocionais nossas. Pode continuar nos escrevendo por aqui quando precisar de ajuda.",
};

/** The configured keyword a text is exactly (ignoring case, accents and spaces around it), or null. */
export function optOutKeywordOf(text: string | null | undefined, keywords: string[]): string | null {
  if (!text || text.length > 64) return null;
  const said = normalizeKeyword(text);
  if (!said) return null;
  return keywords.find((keyword) => normalizeKeyword(keyword) === said) ?? null;
}

/**
 * Inside the transaction that stored a customer's message: a text that is exactly an opt-out
 * keyword sets the contact's `marketing_opt_in` to false and queues the confirmation in their
 * language (job `contact.opt-out`). Nothing else about the conversation changes: the team can
 * answer it as any other message.
 */
export async function handleOptOutKeyword(tx: Tx, { accountId, message, conversation }: { accountId: string; message: Message; conversation: Conversation }) {
  if (message.type !== "text" || !message.text || message.text.length > 64) return false;
  const settings = await loadCampaignSettings(tx, accountId);
  const keyword = optOutKeywordOf(message.text, settings.opt_out_keywords);
  if (!keyword) return false;
  await optOutOfMarketing(tx, { accountId, id: conversation.contactId, at: new Date() });
  const language = message.language ?? (await findLatestInboundLanguage(tx, { accountId, conversationId: conversation.id })) ?? KEYWORD_LANGUAGE[normalizeKeyword(keyword)] ?? "en";
  await enqueueJob(tx, { kind: "contact.opt-out", accountId, payload: { accountId, conversationId: conversation.id, messageId: message.id, language } });
  return true;
}

const optOutPayload = z.object({ accountId: z.string().min(1), conversationId: z.string().min(1), messageId: z.string().min(1), language: z.enum(["en", "es", "pt"]) });

export type SendOptOutConfirmation = (args: { tx: Tx; accountId: string; conversationId: string; to: string; text: string }) => Promise<unknown>;

/** The `contact.opt-out` job: sends the confirmation as an automatic answer, once per opt-out message. */
export function createOptOutJob(send: SendOptOutConfirmation) {
  return defineJob({ kind: "contact.opt-out", schema: optOutPayload, handler: async ({ accountId, conversationId, messageId, language }, { system }) => {
    await system.db.transaction(async (tx) => {
      const [inbound] = await findMessageRows(tx, { accountId, ids: [messageId] });
      if (!inbound) return;
      await send({ tx, accountId, conversationId, to: inbound.fromNumber, text: OPT_OUT_CONFIRMATIONS[language] });
    });
  } });
}

declare module "@/lib/jobs/define" {
  interface JobPayloads {
    "contact.opt-out": PayloadOf<ReturnType<typeof createOptOutJob>>;
  }
}
