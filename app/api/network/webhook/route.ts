import { apiRoute, defineRoute } from "@/lib/api/route";
import { ApiError } from "@/lib/errors";
import { answerWebhookChallenge, receiveCloudWebhook } from "@/lib/network/cloud-webhook";

// Notifications are small JSON documents; media arrives by id and is downloaded separately.
const MAX_NOTIFICATION_BYTES = 1024 * 1024;

/** The exact bytes received: the signature is over them, not over a re-encoding. */
async function readRawBody(req: Request): Promise<Buffer> {
  const tooLarge = () => new ApiError(413, "payload_too_large", `The request body is larger than ${MAX_NOTIFICATION_BYTES} bytes.`);
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > MAX_NOTIFICATION_BYTES) throw tooLarge();
  if (!req.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_NOTIFICATION_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "none" } }, async ({ req }) => {
    const url = new URL(req.url);
    const challenge = await answerWebhookChallenge({
      mode: url.searchParams.get("hub.mode"),
      verifyToken: url.searchParams.get("hub.verify_token"),
      challenge: url.searchParams.get("hub.challenge"),
    });
    return new Response(challenge, { status: 200, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }),
  POST: apiRoute({ access: { auth: "none" } }, async ({ req }) => {
    const rawBody = await readRawBody(req);
    const result = await receiveCloudWebhook({ rawBody, signature: req.headers.get("x-hub-signature-256") });
    return { received: true, ...result };
  }),
});
