import { z } from "zod";
import type {
  InboundMessage,
  MessageType,
  NetworkAdapter,
  OutboundMessage,
  SendResult,
  StatusUpdate,
} from "@/lib/network/types";
import { pinnedFetch } from "@/lib/platform/http/pinned-post";
import { checkWebhookUrl, type LookupAll } from "@/lib/platform/url-policy";
import { contextOf, kindPayload, toInboundKind } from "./cloud-kinds";

const DEFAULT_TIMEOUT_MS = 15_000;
// The network's own ceiling for any media kind (documents) is 100 MB.
const DEFAULT_MAX_MEDIA_BYTES = 100 * 1024 * 1024;

// Graph error codes the network documents as temporary (throttling, unknown or unavailable
// service). Several of them arrive with HTTP 400, so the status alone would call them permanent.
const TRANSIENT_GRAPH_CODES = new Set([1, 2, 4, 17, 341, 80007, 130429, 131000, 131016, 131056, 133004]);

type SendFailure = Extract<SendResult, { ok: false }>;

type GraphResponse = { ok: true; status: number; body: unknown } | { ok: false; failure: SendFailure };

/**
 * The outgoing URL policy of webhooks (SPEC section 5) applied to the network's addresses:
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

const sendResponseSchema = z.looseObject({
  messages: z.array(z.looseObject({ id: z.string().min(1) })).min(1),
});

const uploadResponseSchema = z.looseObject({ id: z.string().min(1) });

const phoneNumberResponseSchema = z.looseObject({
  display_phone_number: z.string().optional(),
  verified_name: z.string().optional(),
});

const mediaInfoResponseSchema = z.looseObject({
  url: z.string().min(1),
  mime_type: z.string().optional(),
});

export function joinUrl({ apiBaseUrl, segments }: { apiBaseUrl: string; segments: string[] }): string {
  const base = apiBaseUrl.replace(/\/+$/, "");
  return [base, ...segments.map((segment) => encodeURIComponent(segment))].join("/");
}

function redactSecret({ text, secret }: { text: string; secret: string }): string {
  return secret ? text.split(secret).join("[redacted]") : text;
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function describeFetchError({ error, timeoutMs }: { error: unknown; timeoutMs: number }): SendFailure {
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

function describeGraphError({ status, body }: { status: number; body: unknown }): SendFailure {
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

function parseBodyText(text: string): unknown {
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
async function approveUrl({
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

function redirectFailure(status: number): SendFailure {
  return {
    ok: false,
    retryable: false,
    status,
    code: "redirect",
    message: `The network answered HTTP ${status} (a redirect); redirects are not followed.`,
  };
}

const isRedirect = (status: number) => status >= 300 && status < 400;

export async function callGraph({
  url,
  method,
  accessToken,
  body,
  timeoutMs,
  policy,
}: {
  url: string;
  method: "GET" | "POST" | "DELETE";
  accessToken: string;
  body?: { json: unknown } | { form: FormData };
  timeoutMs: number;
  policy: UrlPolicy;
}): Promise<GraphResponse> {
  // The connection goes to the address the policy approved: a second DNS answer (rebinding)
  // cannot send the access token somewhere else.
  const approved = await approveUrl({ url, policy, subject: "The network's API base URL" });
  if (!approved.ok) return { ok: false, failure: approved.failure };
  // The sign-up's code exchange is the one call made before there is a token.
  const headers: Record<string, string> = { ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}), Accept: "application/json" };
  let requestBody: string | FormData | undefined;
  if (body && "json" in body) {
    headers["Content-Type"] = "application/json";
    requestBody = JSON.stringify(body.json);
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

function invalidResponse({ status, what }: { status: number; what: string }): SendFailure {
  // The network accepted the request, so a retry could deliver the message twice.
  return {
    ok: false,
    retryable: false,
    status,
    code: "invalid_response",
    message: `The network accepted the ${what} but its answer could not be read.`,
  };
}

function buildMediaPayload({
  type,
  mediaId,
  media,
}: {
  type: Exclude<MessageType, "text">;
  mediaId: string;
  media: NonNullable<OutboundMessage["media"]>;
}): Record<string, unknown> {
  const payload: Record<string, unknown> = { id: mediaId };
  // The network refuses a caption on audio.
  if (media.caption && type !== "audio") payload.caption = media.caption;
  if (type === "document" && media.filename) payload.filename = media.filename;
  return payload;
}

export function createCloudAdapter({
  apiBaseUrl,
  phoneNumberId,
  accessToken,
  urlPolicy,
  timeoutMs = DEFAULT_TIMEOUT_MS,
}: CloudAdapterOptions): NetworkAdapter {
  async function uploadMedia(
    media: NonNullable<OutboundMessage["media"]>,
  ): Promise<{ ok: true; mediaId: string } | { ok: false; failure: SendFailure }> {
    const form = new FormData();
    form.append("messaging_product", "whatsapp");
    form.append("type", media.mimeType);
    form.append("file", new Blob([new Uint8Array(media.bytes)], { type: media.mimeType }), media.filename ?? "upload");
    const response = await callGraph({
      url: joinUrl({ apiBaseUrl, segments: [phoneNumberId, "media"] }),
      method: "POST",
      accessToken,
      body: { form },
      timeoutMs,
      policy: urlPolicy,
    });
    if (!response.ok) return response;
    const parsed = uploadResponseSchema.safeParse(response.body);
    // A lost upload id only orphans the upload; sending has not happened, so retrying is safe.
    if (!parsed.success) {
      return {
        ok: false,
        failure: {
          ok: false,
          retryable: true,
          status: response.status,
          code: "invalid_response",
          message: "The network accepted the media upload but returned no media id.",
        },
      };
    }
    return { ok: true, mediaId: parsed.data.id };
  }

  async function sendMessage(message: OutboundMessage): Promise<SendResult> {
    const envelope = {
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: message.to,
      ...(message.context ? { context: { message_id: message.context.networkMessageId } } : {}),
    };
    let payload: Record<string, unknown>;
    if (message.type === "location" || message.type === "reaction" || message.type === "interactive" || message.type === "template") {
      const kind = kindPayload(message);
      if (!kind.ok) return { ok: false, retryable: false, code: "invalid_message", message: kind.message };
      payload = { ...envelope, type: message.type, ...kind.payload };
    } else if (message.type === "text") {
      if (!message.text) {
        return { ok: false, retryable: false, code: "invalid_message", message: "A text message needs text." };
      }
      payload = { ...envelope, type: "text", text: { body: message.text, preview_url: false } };
    } else {
      if (!message.media) {
        return {
          ok: false,
          retryable: false,
          code: "invalid_message",
          message: `A ${message.type} message needs media.`,
        };
      }
      const upload = await uploadMedia(message.media);
      if (!upload.ok) return upload.failure;
      payload = {
        ...envelope,
        type: message.type,
        [message.type]: buildMediaPayload({ type: message.type, mediaId: upload.mediaId, media: message.media }),
      };
    }
    const response = await callGraph({
      url: joinUrl({ apiBaseUrl, segments: [phoneNumberId, "messages"] }),
      method: "POST",
      accessToken,
      body: { json: payload },
      timeoutMs,
      policy: urlPolicy,
    });
    if (!response.ok) return response.failure;
    const parsed = sendResponseSchema.safeParse(response.body);
    if (!parsed.success) return invalidResponse({ status: response.status, what: "message" });
    return { ok: true, networkMessageId: parsed.data.messages[0].id };
  }

  return {
    async send(message) {
      const result = await sendMessage(message);
      return result.ok ? result : redactFailure({ failure: result, accessToken });
    },

    async testConnection() {
      const url = `${joinUrl({ apiBaseUrl, segments: [phoneNumberId] })}?fields=display_phone_number,verified_name`;
      const response = await callGraph({ url, method: "GET", accessToken, timeoutMs, policy: urlPolicy });
      if (!response.ok) {
        const { failure } = response;
        const message =
          failure.status === 401 ? `Access token rejected by the network: ${failure.message}` : failure.message;
        return { ok: false, message: redactSecret({ text: message, secret: accessToken }) };
      }
      const parsed = phoneNumberResponseSchema.safeParse(response.body);
      if (!parsed.success || !parsed.data.display_phone_number) {
        return { ok: false, message: "The network answered but did not describe the phone number." };
      }
      const { display_phone_number: displayNumber, verified_name: verifiedName } = parsed.data;
      return {
        ok: true,
        message: verifiedName ? `Connected to ${displayNumber} (${verifiedName}).` : `Connected to ${displayNumber}.`,
      };
    },
  };
}

// Inbound webhook. Items the product cannot use (other change fields, malformed entries) are
// caught into null and skipped, so one odd item never makes the network redeliver a whole
// batch; every message kind is kept (cloud-kinds.ts), unknown ones as `unsupported`.

const cloudMediaSchema = z.looseObject({
  id: z.string().min(1),
  mime_type: z.string().min(1),
  sha256: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
  voice: z.boolean().optional(),
});

const cloudTimestampSchema = z.union([z.string(), z.number()]);

const cloudMessageSchema = z.looseObject({
  from: z.string().min(1),
  id: z.string().min(1),
  timestamp: cloudTimestampSchema,
  type: z.string(),
  text: z.looseObject({ body: z.string() }).optional(),
  image: cloudMediaSchema.optional(),
  document: cloudMediaSchema.optional(),
  audio: cloudMediaSchema.optional(),
  video: cloudMediaSchema.optional(),
  voice: cloudMediaSchema.optional(),
  interactive: z
    .looseObject({ type: z.string(), list_reply: z.looseObject({ id: z.string().min(1), title: z.string() }).optional() })
    .optional()
    .catch(undefined),
});

const cloudStatusErrorSchema = z.looseObject({
  code: z.union([z.number(), z.string()]).optional(),
  title: z.string().optional(),
  message: z.string().optional(),
  error_data: z.looseObject({ details: z.string().optional() }).optional(),
});

const cloudStatusSchema = z.looseObject({
  id: z.string().min(1),
  status: z.string(),
  timestamp: cloudTimestampSchema,
  recipient_id: z.string().optional(),
  errors: z.array(cloudStatusErrorSchema).optional(),
});

const cloudContactSchema = z.looseObject({
  profile: z.looseObject({ name: z.string().optional() }).optional(),
  wa_id: z.string().optional(),
});

const cloudChangeValueSchema = z.looseObject({
  messaging_product: z.string().optional(),
  metadata: z
    .looseObject({ display_phone_number: z.string().optional(), phone_number_id: z.string().optional() })
    .optional(),
  contacts: z.array(cloudContactSchema.nullable().catch(null)).optional().catch(undefined),
  messages: z.array(cloudMessageSchema.nullable().catch(null)).optional().catch(undefined),
  statuses: z.array(cloudStatusSchema.nullable().catch(null)).optional().catch(undefined),
});

export const cloudWebhookSchema = z.looseObject({
  object: z.string(),
  entry: z.array(
    z
      .looseObject({
        id: z.string().optional(),
        changes: z
          .array(
            z
              .looseObject({ field: z.string(), value: z.unknown() })
              .nullable()
              .catch(null),
          )
          .default([]),
      })
      .nullable()
      .catch(null),
  ),
});

export type CloudWebhook = z.infer<typeof cloudWebhookSchema>;

type CloudMessage = z.infer<typeof cloudMessageSchema>;
type CloudStatus = z.infer<typeof cloudStatusSchema>;

function parseTimestamp(value: string | number): Date {
  const seconds = typeof value === "number" ? value : Number(value);
  // A missing or garbled timestamp should not drop a customer's message; receipt time is close.
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date();
}

function toInboundMessage({
  message,
  name,
  phoneNumberId,
}: {
  message: CloudMessage;
  name?: string;
  phoneNumberId?: string;
}): InboundMessage | null {
  const context = contextOf(message);
  const base = {
    networkMessageId: message.id,
    from: message.from.replace(/\D/g, ""),
    ...(name ? { name } : {}),
    timestamp: parseTimestamp(message.timestamp),
    ...(phoneNumberId ? { phoneNumberId } : {}),
    ...(context ? { context } : {}),
  };
  if (message.type === "text") {
    return message.text ? { ...base, type: "text", text: message.text.body } : null;
  }
  if (!["image", "document", "audio", "video", "voice"].includes(message.type)) return toInboundKind(message, base);
  // Voice notes arrive as audio with voice: true, or as a separate "voice" kind on older senders.
  const mediaType: Exclude<MessageType, "text"> | null =
    message.type === "voice"
      ? "audio"
      : message.type === "image" || message.type === "document" || message.type === "audio" || message.type === "video"
        ? message.type
        : null;
  if (!mediaType) return null;
  const media = message[message.type as "image" | "document" | "audio" | "video" | "voice"];
  if (!media) return null;
  return {
    ...base,
    type: mediaType,
    media: {
      networkMediaId: media.id,
      mimeType: media.mime_type,
      ...(media.filename ? { filename: media.filename } : {}),
      ...(media.caption ? { caption: media.caption } : {}),
    },
  };
}

function toStatusUpdate({ status, phoneNumberId }: { status: CloudStatus; phoneNumberId?: string }): StatusUpdate | null {
  if (status.status !== "sent" && status.status !== "delivered" && status.status !== "read" && status.status !== "failed") {
    return null;
  }
  const update: StatusUpdate = {
    networkMessageId: status.id,
    status: status.status,
    timestamp: parseTimestamp(status.timestamp),
    ...(phoneNumberId ? { phoneNumberId } : {}),
  };
  if (status.status === "failed") {
    const error = status.errors?.[0];
    const headline = error?.message ?? error?.title;
    const details = error?.error_data?.details;
    const message =
      headline && details && !headline.includes(details) ? `${headline}: ${details}` : (headline ?? details);
    update.error = {
      code: error?.code !== undefined ? String(error.code) : "unknown",
      message: message ?? "The network reported the message as failed.",
    };
  }
  return update;
}

/** Throws a ZodError only when the payload is not a webhook envelope at all. */
export function parseCloudWebhook(payload: unknown): {
  phoneNumberId?: string;
  messages: InboundMessage[];
  statuses: StatusUpdate[];
} {
  const webhook = cloudWebhookSchema.parse(payload);
  let firstPhoneNumberId: string | undefined;
  const messages: InboundMessage[] = [];
  const statuses: StatusUpdate[] = [];

  for (const entry of webhook.entry) {
    for (const change of entry?.changes ?? []) {
      if (!change || change.field !== "messages") continue;
      const value = cloudChangeValueSchema.safeParse(change.value);
      if (!value.success) continue;
      const phoneNumberId = value.data.metadata?.phone_number_id;
      firstPhoneNumberId ??= phoneNumberId;

      const contacts = (value.data.contacts ?? []).filter((contact) => contact !== null);
      const findName = (from: string): string | undefined => {
        const match = contacts.find((contact) => contact.wa_id === from) ?? (contacts.length === 1 ? contacts[0] : undefined);
        return match?.profile?.name || undefined;
      };

      for (const message of value.data.messages ?? []) {
        if (!message) continue;
        const inbound = toInboundMessage({ message, name: findName(message.from), phoneNumberId });
        if (inbound) messages.push(inbound);
      }
      for (const status of value.data.statuses ?? []) {
        if (!status) continue;
        const update = toStatusUpdate({ status, phoneNumberId });
        if (update) statuses.push(update);
      }
    }
  }

  return { ...(firstPhoneNumberId ? { phoneNumberId: firstPhoneNumberId } : {}), messages, statuses };
}

async function readLimitedBody({ response, maxBytes }: { response: Response; maxBytes: number }): Promise<Buffer> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw new NetworkRequestError({
      retryable: false,
      status: response.status,
      code: "media_too_large",
      message: `The media is larger than ${maxBytes} bytes.`,
    });
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new NetworkRequestError({
        retryable: false,
        status: response.status,
        code: "media_too_large",
        message: `The media is larger than ${maxBytes} bytes.`,
      });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Asks the network where a media file is, then downloads it. The download address points at
 * another host chosen by the network's answer, so it passes the same URL policy first.
 */
export async function downloadCloudMedia({
  apiBaseUrl,
  accessToken,
  networkMediaId,
  urlPolicy,
  timeoutMs = DEFAULT_TIMEOUT_MS,
  maxBytes = DEFAULT_MAX_MEDIA_BYTES,
}: {
  apiBaseUrl: string;
  accessToken: string;
  networkMediaId: string;
  urlPolicy: UrlPolicy;
  timeoutMs?: number;
  maxBytes?: number;
}): Promise<{ bytes: Buffer; mimeType: string }> {
  const info = await callGraph({
    url: joinUrl({ apiBaseUrl, segments: [networkMediaId] }),
    method: "GET",
    accessToken,
    timeoutMs,
    policy: urlPolicy,
  });
  if (!info.ok) throw new NetworkRequestError(redactFailure({ failure: info.failure, accessToken }));
  const parsed = mediaInfoResponseSchema.safeParse(info.body);
  if (!parsed.success) {
    throw new NetworkRequestError({
      retryable: true,
      status: info.status,
      code: "invalid_response",
      message: "The network did not return a download address for the media.",
    });
  }

  const approved = await approveUrl({ url: parsed.data.url, policy: urlPolicy, subject: "The media download URL" });
  if (!approved.ok) {
    const refused = approved.failure;
    throw new NetworkRequestError(
      redactFailure({ failure: refused.code === "url_refused" ? { ...refused, code: "media_url_refused" } : refused, accessToken }),
    );
  }

  try {
    // The download address only answers with the same Bearer token as the Graph API.
    const response = await pinnedFetch(parsed.data.url, approved.pinned, {
      headers: { Authorization: `Bearer ${accessToken}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (isRedirect(response.status)) {
      await response.body?.cancel();
      throw new NetworkRequestError(redirectFailure(response.status));
    }
    if (!response.ok) {
      const failure = describeGraphError({ status: response.status, body: parseBodyText(await response.text()) });
      throw new NetworkRequestError(redactFailure({ failure, accessToken }));
    }
    const bytes = await readLimitedBody({ response, maxBytes });
    const mimeType =
      parsed.data.mime_type ?? response.headers.get("content-type") ?? "application/octet-stream";
    return { bytes, mimeType };
  } catch (error) {
    if (error instanceof NetworkRequestError) throw error;
    throw new NetworkRequestError(redactFailure({ failure: describeFetchError({ error, timeoutMs }), accessToken }));
  }
}

/** One message object of a notification (also inside coexistence history), or null when unusable. */
export function parseCloudMessage(message: unknown, { name, phoneNumberId }: { name?: string; phoneNumberId?: string } = {}): InboundMessage | null {
  const parsed = cloudMessageSchema.safeParse(message);
  return parsed.success ? toInboundMessage({ message: parsed.data, name, phoneNumberId }) : null;
}
