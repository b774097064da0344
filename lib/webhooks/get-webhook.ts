import "server-only";
import { getDb } from "@/db";
import { findWebhook, type WebhookCtx } from "./find-webhook";
import { presentWebhook } from "./schemas";

export async function getWebhook({ ctx, id }: { ctx: WebhookCtx; id: string }) {
  return presentWebhook(await findWebhook(getDb(), ctx.accountId, id));
}
