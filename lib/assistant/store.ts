import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { assistantSettings, messages } from "@/db/schema";

// The reads and writes of the assistant: its settings, and the message it may answer.

export async function findAssistantSettings(db: Executor, accountId: string) {
  const [row] = await db.select().from(assistantSettings).where(eq(assistantSettings.accountId, accountId)).limit(1);
  return row;
}

export async function upsertAssistantSettings(db: Executor, accountId: string, values: Omit<typeof assistantSettings.$inferInsert, "accountId">) {
  const [row] = await db
    .insert(assistantSettings)
    .values({ accountId, ...values })
    .onConflictDoUpdate({ target: assistantSettings.accountId, set: values })
    .returning();
  return row;
}

/** A message of the conversation, with what decides whether the assistant may answer it. */
export async function findMessageToAnswer(db: Executor, { accountId, conversationId, messageId }: { accountId: string; conversationId: string; messageId: string }) {
  const [message] = await db
    .select({ text: messages.text, language: messages.language, direction: messages.direction, senderType: messages.senderType, createdAt: messages.createdAt, deletedAt: messages.deletedAt })
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.conversationId, conversationId), eq(messages.id, messageId)))
    .limit(1);
  return message;
}
