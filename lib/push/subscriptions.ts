import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { getEnv } from "@/lib/platform/env";
import { invalidField, NotFoundError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { checkWebhookUrl } from "@/lib/platform/url-policy";
import type { CreatePushSubscriptionInput, PushSubscriptionOutput } from "./schemas";
import { deleteSameDeviceOfOthers, deleteSubscriptions, deleteUserSubscription, selectUserDeviceIds, upsertPushSubscription } from "./store";

/** Devices one user may be pushed to; subscribing one more forgets the oldest. */
const MAX_PUSH_SUBSCRIPTIONS_PER_USER = 10;

/**
 * Registers (or refreshes) this browser for the calling user. The endpoint passes the same
 * outgoing URL policy as webhooks (https, public addresses; checked again, and the connection
 * pinned, at every send). The write is the caller's own: an endpoint is unique per user, so a
 * registration never moves or overwrites another account's or another user's row. The same
 * browser subscription (same endpoint and the same keys, which only that browser holds)
 * registered by a teammate signed in there now leaves its previous user in this account.
 */
export async function createPushSubscription({
  ctx,
  input,
  userAgent,
}: {
  ctx: ServiceContext<"user">;
  input: CreatePushSubscriptionInput;
  userAgent?: string | null;
}): Promise<{ subscription: PushSubscriptionOutput }> {
  const check = await checkWebhookUrl({ url: input.endpoint, allowInsecure: getEnv().WEBHOOK_ALLOW_INSECURE_TARGETS, subject: "The push endpoint" });
  if (!check.ok) throw invalidField("endpoint", check.reason);
  const db = ctx.db;
  const now = new Date();
  const values = {
    accountId: ctx.accountId,
    userId: ctx.user.id,
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    userAgent: userAgent?.slice(0, 300) ?? null,
  };
  const row = await upsertPushSubscription(db, { id: newId("pushSubscription", now), values, now });
  await deleteSameDeviceOfOthers(db, values);
  const mine = await selectUserDeviceIds(db, { accountId: ctx.accountId, userId: ctx.user.id });
  const surplus = mine.slice(0, Math.max(0, mine.length - MAX_PUSH_SUBSCRIPTIONS_PER_USER)).filter((id) => id !== row.id);
  if (surplus.length) await deleteSubscriptions(db, { accountId: ctx.accountId, ids: surplus });
  return { subscription: { id: row.id, endpoint: row.endpoint, created_at: row.createdAt.toISOString() } };
}

/** Stops pushes to one browser of the calling user; another user's endpoint is not found. */
export async function deletePushSubscription({ ctx, endpoint }: { ctx: ServiceContext<"user">; endpoint: string }) {
  if (!(await deleteUserSubscription(ctx.db, { accountId: ctx.accountId, userId: ctx.user.id, endpoint }))) throw new NotFoundError("Push subscription");
}
