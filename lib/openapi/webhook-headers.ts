import { z } from "zod";
import "zod-openapi";

/**
 * The headers of every webhook delivery, documented as header parameters
 * of each webhook operation so receivers see how to check a signature.
 */
export const webhookDeliveryHeaders = z.object({
  "X-Service-Signature": z.string().meta({
    description: "`sha256=` and the lowercase hex HMAC-SHA256 of the raw body, keyed with the UTF-8 bytes of the webhook secret string as shown (prefix included).",
    example: "sha256=5d1e0f2a9c7b3e8d4f6a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a",
  }),
  "X-Service-Event-Id": z.string().meta({ description: "The event id (`evt_...`); the same on every attempt. De-duplicate on it.", example: "evt_01jd2x8k3f0m6q1v9w4r7t5y2z" }),
  "X-Service-Event-Type": z.string().meta({ description: "The event type, e.g. `plant.created`.", example: "plant.created" }),
  "X-Service-Delivery-Id": z.string().meta({ description: "The delivery id (`dlv_...`).", example: "dlv_01jd2x8k3f0m6q1v9w4r7t5y2z" }),
  "X-Service-Delivery-Attempt": z.string().regex(/^[1-9][0-9]*$/).meta({
    description:
      "The attempt number: 1 to 5 on the retry schedule. A manual redelivery (`POST /v1/webhooks/{id}/deliveries/{delivery_id}/retry`) of a delivery whose schedule has ended is numbered after its last attempt (6, 7, …).",
    example: "1",
  }),
  "webhook-id": z.string().meta({ description: "Standard Webhooks: the event id.", example: "evt_01jd2x8k3f0m6q1v9w4r7t5y2z" }),
  "webhook-timestamp": z.string().meta({ description: "Standard Webhooks: unix seconds of the attempt; refuse old ones to stop replays.", example: "1795342530" }),
  "webhook-signature": z.string().meta({
    description:
      'Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `"<webhook-id>.<webhook-timestamp>.<body>"`, keyed as the Standard Webhooks specification says: with the base64-decoded part of the secret after `whsec_` (a chosen secret that is not base64: its UTF-8 bytes), so `new Webhook(secret)` of a Standard Webhooks library verifies it as is.',
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  }),
  "User-Agent": z.literal("Chorus-Webhooks/1").meta({ description: "Identifies the sender." }),
});

export const webhookDeliveryDescription = [
  "Chorus POSTs the JSON body to each active webhook subscribed to the event type.",
  "An answer with any 2xx status within 30 s acknowledges it; anything else is retried 1 min, 5 min, 15 min and 1 h later (5 attempts in all).",
  "Delivery is at least once: de-duplicate by the event id.",
].join(" ");
