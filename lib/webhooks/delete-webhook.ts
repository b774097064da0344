import "server-only";
import { and, eq } from "drizzle-orm";
import { actorOf, recordAudit } from "@/lib/audit/record-audit";
import { webhooks } from "@/db/schema";
import { NotFoundError } from "@/lib/platform/errors";
import type { ServiceContext } from "@/lib/auth/context";

/**
 * Deletes a webhook with its deliveries and log. Scheduled attempts find nothing left and
 * stop (the local job ends, the Inngest function's next step returns "skipped").
 */
export async function deleteWebhook({ ctx, id }: { ctx: ServiceContext<"user">; id: string }) {
  const deleted = await ctx.db
    .delete(webhooks)
    .where(and(eq(webhooks.accountId, ctx.accountId), eq(webhooks.id, id)))
    .returning({ id: webhooks.id });
  if (deleted.length === 0) throw new NotFoundError("Webhook");
  await recordAudit(ctx.db, { accountId: ctx.accountId, actor: actorOf(ctx), action: "webhook.deleted", target: { type: "webhook", id } });
}
