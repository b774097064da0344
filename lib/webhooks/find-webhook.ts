import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { type Webhook, webhooks } from "@/db/schema";
import { NotFoundError } from "@/lib/platform/errors";

/** A webhook of the caller's account; another account's id is a 404 like an unknown one. */
export async function findWebhook(tx: Executor, accountId: string, id: string, { lock = false } = {}): Promise<Webhook> {
  const query = tx
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.accountId, accountId), eq(webhooks.id, id)))
    .limit(1);
  const [webhook] = lock ? await query.for("update") : await query;
  if (!webhook) throw new NotFoundError("Webhook");
  return webhook;
}
