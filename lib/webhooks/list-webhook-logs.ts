import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import { webhookAttempts } from "@/db/schema";
import { type CursorPosition, toPage } from "@/lib/platform/cursor";
import type { ServiceContext } from "@/lib/auth/context";
import { findWebhook } from "./store";
import { presentAttempt } from "./schemas";

/**
 * The attempt log of one webhook, newest first by (attempted_at, id), optionally of one
 * status; served by webhook_attempts_webhook_attempted_idx / _status_idx.
 */
export async function listWebhookLogs({
  ctx,
  id,
  status,
  limit,
  cursor,
}: {
  ctx: ServiceContext<"user">;
  id: string;
  status?: "succeeded" | "failed" | "pending";
  limit: number;
  cursor?: CursorPosition;
}) {
  const db = ctx.db;
  await findWebhook(db, ctx.accountId, id);
  const rows = await db
    .select()
    .from(webhookAttempts)
    .where(
      and(
        eq(webhookAttempts.webhookId, id),
        eq(webhookAttempts.accountId, ctx.accountId),
        status ? eq(webhookAttempts.status, status) : undefined,
        cursor
          ? sql`(${webhookAttempts.attemptedAt}, ${webhookAttempts.id}) < (${cursor.t.toISOString()}::timestamptz, ${cursor.id})`
          : undefined,
      ),
    )
    .orderBy(desc(webhookAttempts.attemptedAt), desc(webhookAttempts.id))
    .limit(limit + 1);
  return toPage(rows, limit, (row) => ({ t: row.attemptedAt, id: row.id }), presentAttempt);
}
