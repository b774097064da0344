import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { messageTemplates } from "@/db/schema";

/** The account's template of this name in this language, if any. */
export async function findTemplateByName(executor: Executor, { accountId, name, language }: { accountId: string; name: string; language: string }) {
  const [row] = await executor
    .select()
    .from(messageTemplates)
    .where(and(eq(messageTemplates.accountId, accountId), eq(messageTemplates.name, name), eq(messageTemplates.language, language)))
    .limit(1);
  return row;
}
