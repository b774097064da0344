import type { Executor } from "@/db";
import type { Language } from "@/lib/platform/language/language";
import { findConversationLanguage } from "./store";

/**
 * The language the product speaks to a conversation's customer on its own: the language of
 * their latest message whose language is known, else the business's language.
 */
export async function conversationLanguage(db: Executor, { accountId, conversationId }: { accountId: string; conversationId: string }): Promise<Language> {
  return (await findConversationLanguage(db, { accountId, conversationId })) ?? "en";
}
