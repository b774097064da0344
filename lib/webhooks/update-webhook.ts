import "server-only";
import { actorOf, recordAudit } from "@/lib/audit/record-audit";
import { approvedUrl } from "./create-webhook";
import type { ServiceContext } from "@/lib/auth/context";
import { findWebhook, updateWebhookRow } from "./store";
import { presentWebhook, type UpdateWebhookInput } from "./schemas";
import { runVerification } from "./verify-webhook";

/**
 * PATCH {url?, events?, status?}. Disabling takes effect at once (scheduled attempts stop).
 * Re-enabling, or pointing a live webhook at a new URL, re-runs the verification challenge
 * before answering: the webhook is active again only if the endpoint passes it. While it
 * runs the webhook keeps its previous status, so pending retries go to the new URL.
 */
export async function updateWebhook({ ctx, id, input }: { ctx: ServiceContext<"user">; id: string; input: UpdateWebhookInput }) {
  const db = ctx.db;
  await findWebhook(db, ctx.accountId, id);
  const url = input.url !== undefined ? await approvedUrl(input.url) : undefined;
  const { webhook, verify } = await db.transaction(async (tx) => {
    const current = await findWebhook(tx, ctx.accountId, id, { lock: true });
    const urlChanged = url !== undefined && url !== current.url;
    const disabling = input.status === "disabled";
    const enabling = input.status === "active" && current.status !== "active";
    const verify = !disabling && (enabling || (urlChanged && current.status !== "disabled"));
    const now = new Date();
    // The row is locked above, so it is there to update.
    const row = (await updateWebhookRow(tx, { accountId: ctx.accountId, id }, {
      ...(url !== undefined ? { url } : {}),
      ...(input.events !== undefined ? { events: input.events } : {}),
      ...(disabling && current.status !== "disabled" ? { status: "disabled" as const, statusReason: `Disabled by ${ctx.user.name}.` } : {}),
      ...(enabling ? { consecutiveFailures: 0 } : {}),
      updatedAt: now,
    }))!;
    await recordAudit(tx, { accountId: ctx.accountId, actor: actorOf(ctx), action: "webhook.updated", target: { type: "webhook", id } });
    return { webhook: row, verify };
  });
  if (!verify) return presentWebhook(webhook);
  return presentWebhook(await runVerification(ctx, { accountId: ctx.accountId, webhookId: id }));
}
