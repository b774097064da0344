import { createPushSubscriptionInput, deletePushSubscriptionInput, pushSubscriptionOutput } from "@/lib/push/schemas";
import { operationsFor, type V1Domain } from "../v1-common";

const tag = {
  name: "Push",
  description:
    "Web Push (VAPID) to the browsers and installed apps of the signed-in user: a new customer message in a conversation that is theirs or unassigned, a mention, an assignment to them, an SLA warning — as chosen in Settings → Notifications, outside their quiet hours. A tap opens `/inbox/{conversation_id}`.",
};
const op = operationsFor(tag.name);

export const pushDomain: V1Domain = {
  tag,
  paths: {
    "/v1/push/subscriptions": {
      post: op({
        operationId: "createPushSubscription",
        summary: "Subscribe this browser to pushes",
        description:
          "Send the browser's `PushSubscription.toJSON()` (made with the server's VAPID public key, shown in Settings → Notifications). The endpoint must pass the webhook URL policy (https, a public address). Subscribing the same endpoint again refreshes it (and moves it to you when another user had it); a user keeps at most 10 devices, the oldest is forgotten. A push service that answers 404 or 410 removes the subscription.",
        access: { auth: "session" },
        body: createPushSubscriptionInput,
        success: { status: "201", description: "Subscribed.", schema: pushSubscriptionOutput },
      }),
      delete: op({
        operationId: "deletePushSubscription",
        summary: "Stop pushes to this browser",
        description: "`{endpoint}` of one of your own subscriptions; another user's endpoint is a 404.",
        access: { auth: "session" },
        body: deletePushSubscriptionInput,
        success: { status: "204", description: "Unsubscribed." },
        errors: [404],
      }),
    },
  },
};
