import "server-only";
import { actorOf, recordAudit } from "@/lib/audit/record-audit";
import { NotFoundError } from "@/lib/platform/errors";
import type { ServiceContext } from "@/lib/auth/context";
import { deleteWebhookRow } from "./store";

/**
 * Deletes a webhook with its deliveries and log. Scheduled attempts find nothing left and
 * stop (the local job ends, the Inngest function's next step returns "skipped").
 */
export async function deleteWebhook({ ctx, id }: { ctx: ServiceContext<"user">; id: string }) {
  if (!(await deleteWebhookRow(ctx.db, { accountId: ctx.accountId, id }))) throw new NotFoundError("Webhook");
  await recordAudit(ctx.db, { accountId: ctx.accountId, actor: actorOf(ctx), action: "webhook.deleted", target: { type: "webhook", id } });
}
