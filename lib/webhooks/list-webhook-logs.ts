import "server-only";
import { type CursorPosition, toPage } from "@/lib/platform/cursor";
import type { ServiceContext } from "@/lib/auth/context";
import { findWebhook, listAttempts } from "./store";
import { presentAttempt } from "./schemas";

/**
 * The attempt log of one webhook, newest first by (attempted_at, id), optionally of one
 * status, a page at a time.
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
  const rows = await listAttempts(db, { accountId: ctx.accountId, webhookId: id, status, cursor, limit: limit + 1 });
  return toPage(rows, limit, (row) => ({ t: row.attemptedAt, id: row.id }), presentAttempt);
}
