import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { messageTemplates } from "@/db/schema";

/** Whether the account has a template of this name in this language: its id, or undefined. */
export async function findTemplateId(executor: Executor, { accountId, name, language }: { accountId: string; name: string; language: string }) {
  const [row] = await executor
    .select({ id: messageTemplates.id })
    .from(messageTemplates)
    .where(and(eq(messageTemplates.accountId, accountId), eq(messageTemplates.name, name), eq(messageTemplates.language, language)))
    .limit(1);
  return row;
}
