/** The Graph API client: URL approval, pinned calls, error mapping and secret redaction. */
import { z } from "zod";
import type { SendResult } from "@/lib/network/types";
import { pinnedFetch } from "@/lib/platform/http/pinned-post";
import { checkWebhookUrl, type LookupAll } from "@/lib/platform/url-policy";

export const DEFAULT_TIMEOUT_MS = 15_000;
// The network's own ceiling for any media kind (documents) is 100 MB.
export const DEFAULT_MAX_MEDIA_BYTES = 100 * 1024 * 1024;

// Graph error codes the network documents as temporary (throttling, unknown or unavailable
// service). Several of them arrive with HTTP 400, so the status alone would call them permanent.
const TRANSIENT_GRAPH_CODES = new Set([1, 2, 4, 17, 341, 80007, 130429, 131000, 131016, 131056, 133004]);

export type SendFailure = Extract<SendResult, { ok: false }>;

type GraphResponse = { ok: true; status: number; body: unknown } | { ok: false; failure: SendFailure };

/**
 * The outgoing URL policy of webhooks applied to the network's addresses:
 * `allowInsecure` is WEBHOOK_ALLOW_INSECURE_TARGETS (http and loopback/private targets for
 * development and tests); `lookup` replaces DNS in tests.
 */
export type UrlPolicy = { allowInsecure: boolean; lookup?: LookupAll };

export type CloudAdapterOptions = {
  apiBaseUrl: string;
  phoneNumberId: string;
  accessToken: string;
  urlPolicy: UrlPolicy;
  timeoutMs?: number;
};

export class NetworkRequestError extends Error {
  readonly code: string;
  readonly status?: number;
  readonly retryable: boolean;

  constructor(failure: Omit<SendFailure, "ok">) {
    super(failure.message);
    this.name = "NetworkRequestError";
    this.code = failure.code;
    this.status = failure.status;
    this.retryable = failure.retryable;
  }
}

const graphErrorSchema = z.object({
  error: z.looseObject({
    message: z.string().optional(),
    type: z.string().optional(),
    code: z.union([z.number(), z.string()]).optional(),
    error_subcode: z.union([z.number(), z.string()]).optional(),
    is_transient: z.boolean().optional(),
    error_data: z.looseObject({ details: z.string().optional() }).optional(),
    fbtrace_id: z.string().optional(),
  }),
});

export function joinUrl({ apiBaseUrl, segments }: { apiBaseUrl: string; segments: string[] }): string {
  const base = apiBaseUrl.replace(/\/+$/, "");
  return [base, ...segments.map((segment) => encodeURIComponent(segment))].join("/");
}

export function redactSecret({ text, secret }: { text: string; secret: string }): string {
  return secret ? text.split(secret).join("[redacted]") : text;
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

export function describeFetchError({ error, timeoutMs }: { error: unknown; timeoutMs: number }): SendFailure {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return {
      ok: false,
      retryable: true,
      code: "timeout",
      message: `The network did not answer within ${timeoutMs} ms.`,
    };
  }
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const detail = typeof cause?.code === "string" ? cause.code : error instanceof Error ? error.message : "unknown error";
  return { ok: false, retryable: true, code: "network_error", message: `Could not reach the network (${detail}).` };
}

export function describeGraphError({ status, body }: { status: number; body: unknown }): SendFailure {
  const parsed = graphErrorSchema.safeParse(body);
  if (!parsed.success) {
    return {
      ok: false,
      retryable: isRetryableStatus(status),
      status,
      code: `http_${status}`,
      message: `The network answered HTTP ${status}.`,
    };
  }
  const { error } = parsed.data;
  const baseMessage = error.message ?? `The network answered HTTP ${status}.`;
  const details = error.error_data?.details;
  const message = details && !baseMessage.includes(details) ? `${baseMessage}: ${details}` : baseMessage;
  const numericCode = typeof error.code === "string" ? Number(error.code) : error.code;
  const transient =
    error.is_transient === true || (numericCode !== undefined && TRANSIENT_GRAPH_CODES.has(numericCode));
  return {
    ok: false,
    retryable: isRetryableStatus(status) || transient,
    status,
    code: error.code !== undefined ? String(error.code) : `http_${status}`,
    message,
  };
}

export function parseBodyText(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Checks an address the network or the account supplied before the access token is sent
 * there. A refused address is a permanent failure; a host name that does not resolve now
 * may be a passing DNS fault, so it is retried like an unreachable network.
 */
export async function approveUrl({
  url,
  policy,
  subject,
}: {
  url: string;
  policy: UrlPolicy;
  subject: string;
}): Promise<{ ok: true; pinned: PinnedAddress } | { ok: false; failure: SendFailure }> {
  const check = await checkWebhookUrl({ url, allowInsecure: policy.allowInsecure, lookup: policy.lookup, subject });
  if (check.ok) return { ok: true, pinned: { address: check.address, family: check.family } };
  if (check.unresolved) return { ok: false, failure: { ok: false, retryable: true, code: "network_error", message: `Could not reach the network (${check.reason})` } };
  return { ok: false, failure: { ok: false, retryable: false, code: "url_refused", message: check.reason } };
}

type PinnedAddress = { address: string; family: 4 | 6 };

export function redirectFailure(status: number): SendFailure {
  return {
    ok: false,
    retryable: false,
    status,
    code: "redirect",
    message: `The network answered HTTP ${status} (a redirect); redirects are not followed.`,
  };
}

export const isRedirect = (status: number) => status >= 300 && status < 400;

export async function callGraph({
  url,
  method,
  accessToken,
  body,
  timeoutMs,
  policy,
  headers: extraHeaders,
  authScheme = "Bearer",
}: {
  url: string;
  method: "GET" | "POST" | "DELETE";
  accessToken: string;
  body?: { json: unknown } | { form: FormData } | { bytes: Uint8Array };
  timeoutMs: number;
  policy: UrlPolicy;
  /** Extra request headers (the resumable upload's `file_offset`). */
  headers?: Record<string, string>;
  /** The resumable upload API documents `OAuth` as its scheme; every other call uses `Bearer`. */
  authScheme?: "Bearer" | "OAuth";
}): Promise<GraphResponse> {
  // The connection goes to the address the policy approved: a second DNS answer (rebinding)
  // cannot send the access token somewhere else.
  const approved = await approveUrl({ url, policy, subject: "The network's API base URL" });
  if (!approved.ok) return { ok: false, failure: approved.failure };
  // The sign-up's code exchange is the one call made before there is a token.
  const headers: Record<string, string> = { ...extraHeaders, ...(accessToken ? { Authorization: `${authScheme} ${accessToken}` } : {}), Accept: "application/json" };
  let requestBody: string | FormData | Uint8Array | undefined;
  if (body && "json" in body) {
    headers["Content-Type"] = "application/json";
    requestBody = JSON.stringify(body.json);
  } else if (body && "bytes" in body) {
    headers["Content-Type"] = "application/octet-stream";
    requestBody = body.bytes;
  } else if (body) {
    // fetch writes the multipart boundary into Content-Type itself.
    requestBody = body.form;
  }
  try {
    // A redirect could carry the bearer token to an address the policy never saw.
    const response = await pinnedFetch(url, approved.pinned, {
      method,
      headers,
      body: requestBody,
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (isRedirect(response.status)) {
      await response.body?.cancel();
      return { ok: false, failure: redirectFailure(response.status) };
    }
    const parsed = parseBodyText(await response.text());
    if (!response.ok) return { ok: false, failure: describeGraphError({ status: response.status, body: parsed }) };
    return { ok: true, status: response.status, body: parsed };
  } catch (error) {
    return { ok: false, failure: describeFetchError({ error, timeoutMs }) };
  }
}

export function redactFailure({ failure, accessToken }: { failure: SendFailure; accessToken: string }): SendFailure {
  return { ...failure, message: redactSecret({ text: failure.message, secret: accessToken }) };
}

export function invalidResponse({ status, what }: { status: number; what: string }): SendFailure {
  // The network accepted the request, so a retry could deliver the message twice.
  return {
    ok: false,
    retryable: false,
    status,
    code: "invalid_response",
    message: `The network accepted the ${what} but its answer could not be read.`,
  };
}
