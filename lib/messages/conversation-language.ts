import { and, desc, eq, isNotNull } from "drizzle-orm";
import type { Executor } from "@/db";
import { businessProfiles, messages } from "@/db/schema";
import type { Language } from "@/lib/platform/language/language";

/**
 * The language the product speaks to a conversation's customer on its own: the language of
 * their latest message whose language is known, else the business's language.
 */
export async function conversationLanguage(db: Executor, { accountId, conversationId }: { accountId: string; conversationId: string }): Promise<Language> {
  const [last] = await db
    .select({ language: messages.language })
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.conversationId, conversationId), eq(messages.direction, "inbound"), isNotNull(messages.language)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  if (last?.language) return last.language;
  const [profile] = await db.select({ language: businessProfiles.language }).from(businessProfiles).where(eq(businessProfiles.accountId, accountId)).limit(1);
  return profile?.language ?? "en";
}
