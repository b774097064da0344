import { actorOf, recordAudit } from "@/lib/audit/record-audit";
import { getEnv } from "@/lib/platform/env";
import { ConflictError, invalidField } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import type { AuthContext } from "@/lib/auth/tokens";
import type { ServiceContext } from "@/lib/auth/context";
import { type CreatedWebhookOutput, type CreateWebhookInput, MAX_WEBHOOKS_PER_ACCOUNT, presentWebhook } from "./schemas";
import { generateWebhookSecret } from "@/lib/webhooks/signature";
import { checkWebhookUrl } from "@/lib/platform/url-policy";
import { runVerification } from "./verify-webhook";
import { sealWebhookSecret } from "./secret-at-rest";
import { countWebhooksLocked, insertWebhook } from "./store";
import { decryptSecret, encryptSecret } from "@/lib/platform/crypto/seal";

/** Checks a URL against the policy at registration; a refusal is a 400 naming `url`. */
export async function approvedUrl(url: string): Promise<string> {
  const check = await checkWebhookUrl({ url, allowInsecure: getEnv().WEBHOOK_ALLOW_INSECURE_TARGETS });
  if (!check.ok) throw invalidField("url", check.reason);
  return check.url.href;
}

/**
 * Registers a webhook and runs the verification challenge before answering, so the 201
 * already tells whether the endpoint is `active` or `verification_failed` (and why). The
 * secret is returned here and never again.
 */
export async function createWebhook({ ctx, input }: { ctx: ServiceContext<"user">; input: CreateWebhookInput }): Promise<CreatedWebhookOutput> {
  const url = await approvedUrl(input.url);
  const secret = input.secret ?? generateWebhookSecret();
  const webhook = await ctx.db.transaction(async (tx) => {
    // Serialises registrations of one account so two concurrent ones cannot both be the 20th.
    if ((await countWebhooksLocked(tx, ctx.accountId)) >= MAX_WEBHOOKS_PER_ACCOUNT) {
      throw new ConflictError(`An account can have at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks. Delete one first.`);
    }
    const now = new Date();
    const id = newId("webhook", now);
    const sealed = sealWebhookSecret({ secret, accountId: ctx.accountId, webhookId: id });
    const row = await insertWebhook(tx, { id, accountId: ctx.accountId, url, events: input.events, secret: sealed, status: "pending", createdAt: now, updatedAt: now });
    await recordAudit(tx, { accountId: ctx.accountId, actor: actorOf(ctx), action: "webhook.created", target: { type: "webhook", id } });
    return row;
  });
  const verified = await runVerification(ctx, { accountId: ctx.accountId, webhookId: webhook.id });
  const { id, events, status, status_reason, created_at, updated_at } = presentWebhook(verified);
  return { id, url: verified.url, events, secret, status, status_reason, created_at, updated_at };
}

/**
 * Idempotency storage of a registration: the answer is kept with its secret sealed
 * (AES-256-GCM, bound to the account, the user who registered it and the webhook id), so a
 * replay returns the first answer even after the webhook was deleted, and only to that user.
 */
const replayField = (userId: string, webhookId: unknown) => `idempotent_webhook_secret:${userId}:${String(webhookId)}`;

export const webhookCreationSecrets = {
  withoutSecret: (body: Record<string, unknown>, ctx: AuthContext) => ({
    ...body,
    secret: encryptSecret({ plaintext: String(body.secret), accountId: ctx.accountId, field: replayField(ctx.user.id, body.id) }),
  }),
  restoreSecret: async (body: Record<string, unknown>, ctx: AuthContext) => {
    const secret = decryptSecret({ stored: String(body.secret), accountId: ctx.accountId, field: replayField(ctx.user.id, body.id) });
    if (secret === null) throw new Error("The webhook secret of this replay cannot be read: AUTH_SECRET changed since it was stored.");
    return { ...body, secret };
  },
};
