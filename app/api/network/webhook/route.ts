import { apiRoute, defineRoute } from "@/lib/api/route";
import { readBody } from "@/lib/platform/http/read-body";
import { answerWebhookChallenge, receiveCloudWebhook } from "@/lib/inbound/cloud-webhook";
import { systemContext } from "@/lib/server/context";

// Notifications are small JSON documents; media arrives by id and is downloaded separately.
const MAX_NOTIFICATION_BYTES = 1024 * 1024;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "none" } }, async ({ req }) => {
    const url = new URL(req.url);
    const challenge = await answerWebhookChallenge(systemContext(), {
      mode: url.searchParams.get("hub.mode"),
      verifyToken: url.searchParams.get("hub.verify_token"),
      challenge: url.searchParams.get("hub.challenge"),
    });
    return new Response(challenge, { status: 200, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }),
  POST: apiRoute({ access: { auth: "none" } }, async ({ req }) => {
    // The exact bytes received: the signature is over them, not over a re-encoding.
    const rawBody = await readBody(req, MAX_NOTIFICATION_BYTES);
    const result = await receiveCloudWebhook(systemContext(), { rawBody, signature: req.headers.get("x-hub-signature-256") });
    return { received: true, ...result };
  }),
});
