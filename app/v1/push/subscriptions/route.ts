import { apiRoute, created, defineRoute, noContent } from "@/lib/api/route";
import { createPushSubscription, deletePushSubscription } from "@/lib/push/subscriptions";
import { createPushSubscriptionInput, deletePushSubscriptionInput } from "@/lib/push/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "any" }, sessionOnly: true, body: createPushSubscriptionInput }, async ({ ctx, body, req }) => {
    const { subscription } = await createPushSubscription({ ctx, input: body, userAgent: req.headers.get("user-agent") });
    return created(subscription);
  }),
  DELETE: apiRoute({ access: { auth: "any" }, sessionOnly: true, body: deletePushSubscriptionInput }, async ({ ctx, body }) => {
    await deletePushSubscription({ ctx, endpoint: body.endpoint });
    return noContent();
  }),
});
