import { getEnv } from "@/lib/platform/env";
import { pinnedPost } from "@/lib/platform/http/pinned-post";
import { signPayload } from "@/lib/webhooks/signature";
import { checkWebhookUrl, type LookupAll } from "@/lib/platform/url-policy";

const WEBHOOK_USER_AGENT = "Chorus-Webhooks/1";

export type SendResult = {
  ok: boolean;
  status: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
};

// PostgreSQL text cannot hold NUL; a receiver's answer may contain anything.
const storable = (text: string | undefined | null) => (text == null ? null : text.replace(/\u0000/g, "\uFFFD"));

/** The headers of one attempt, as the webhook documentation lists them. */
/** What identifies one attempt of one delivery, as its headers carry it. */
type Attempt = { body: string; eventId: string; eventType: string; deliveryId: string; attempt: number };

function deliveryHeaders({ secret, body, eventId, eventType, deliveryId, attempt, timestamp }: Attempt & { secret: string; timestamp: number }): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "User-Agent": WEBHOOK_USER_AGENT,
    ...signPayload({ secret, body, eventId, timestamp }),
    "X-Service-Event-Id": eventId,
    "X-Service-Event-Type": eventType,
    "X-Service-Delivery-Id": deliveryId,
    "X-Service-Delivery-Attempt": String(attempt),
  };
}

/**
 * Sends one signed attempt. The URL policy is checked again here, against what the host
 * resolves to now, and the connection is pinned to the approved address, so a name that
 * was public at registration cannot be turned towards an internal address later.
 * Never throws: every failure (refused address, timeout, 3xx, 4xx, 5xx) is a result.
 */
export async function sendSigned({
  url,
  secret,
  body,
  eventId,
  eventType,
  deliveryId,
  attempt,
  timeoutMs,
  lookup,
}: Attempt & {
  url: string;
  /** null when the stored secret cannot be read: the attempt fails without sending. */
  secret: string | null;
  timeoutMs?: number;
  lookup?: LookupAll;
}): Promise<SendResult> {
  const env = getEnv();
  const startedAt = performance.now();
  if (secret === null) {
    return { ok: false, status: null, body: null, error: "the signing secret cannot be read: AUTH_SECRET changed since the webhook was registered", durationMs: 0 };
  }
  try {
    const check = await checkWebhookUrl({ url, allowInsecure: env.WEBHOOK_ALLOW_INSECURE_TARGETS, lookup });
    if (!check.ok) {
      return { ok: false, status: null, body: null, error: `refused: ${check.reason}`, durationMs: Math.round(performance.now() - startedAt) };
    }
    const headers = deliveryHeaders({ secret, body, eventId, eventType, deliveryId, attempt, timestamp: Date.now() / 1000 });
    const result = await pinnedPost({
      url: check.url,
      address: check.address,
      family: check.family,
      headers,
      body,
      timeoutMs: timeoutMs ?? env.WEBHOOK_TIMEOUT_MS,
      keepAlive: true,
    });
    return {
      ok: result.ok,
      status: result.status ?? null,
      body: storable(result.body),
      error: result.ok ? null : storable(result.error),
      durationMs: result.durationMs,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, status: null, body: null, error: storable(message), durationMs: Math.round(performance.now() - startedAt) };
  }
}
