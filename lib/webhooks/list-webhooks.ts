import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { getDb } from "@/db";
import { webhooks } from "@/db/schema";
import { type CursorPosition, toPage } from "@/lib/platform/cursor";
import { afterCursor } from "@/lib/platform/pagination";
import type { WebhookCtx } from "./find-webhook";
import { presentWebhook } from "./schemas";

export async function listWebhooks({ ctx, limit, cursor }: { ctx: WebhookCtx; limit: number; cursor?: CursorPosition }) {
  const rows = await getDb()
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.accountId, ctx.accountId), afterCursor(webhooks, cursor, "asc")))
    .orderBy(asc(webhooks.createdAt), asc(webhooks.id))
    .limit(limit + 1);
  return toPage(rows, limit, (w) => ({ t: w.createdAt, id: w.id }), presentWebhook);
}
