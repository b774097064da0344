/** Download of a received media file: its URL from the Graph API, then its bytes, size-limited. */
import { z } from "zod";
import { pinnedFetch } from "@/lib/platform/http/pinned-post";
import {
  approveUrl,
  callGraph,
  DEFAULT_MAX_MEDIA_BYTES,
  DEFAULT_TIMEOUT_MS,
  describeFetchError,
  describeGraphError,
  isRedirect,
  joinUrl,
  NetworkRequestError,
  parseBodyText,
  redactFailure,
  redirectFailure,
  type UrlPolicy,
} from "./graph";

const mediaInfoResponseSchema = z.looseObject({
  url: z.string().min(1),
  mime_type: z.string().optional(),
});

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
