/** The Cloud API adapter: sends every message kind, uploading media first. */
import { z } from "zod";
import type { MessageType, NetworkAdapter, OutboundMessage, SendResult } from "@/lib/network/types";
import { isNetworkUserId } from "@/lib/platform/fields";
import { kindPayload } from "./kinds";
import { callGraph, type CloudAdapterOptions, DEFAULT_TIMEOUT_MS, invalidResponse, joinUrl, redactFailure, redactSecret, type SendFailure } from "./graph";

const sendResponseSchema = z.looseObject({
  messages: z.array(z.looseObject({ id: z.string().min(1) })).min(1),
});

const uploadResponseSchema = z.looseObject({ id: z.string().min(1) });

const phoneNumberResponseSchema = z.looseObject({
  display_phone_number: z.string().optional(),
  verified_name: z.string().optional(),
});


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
      // A customer known only by their business-scoped user id is addressed by `recipient`.
      ...(isNetworkUserId(message.to) ? { recipient: message.to } : { to: message.to }),
      ...(message.context ? { context: { message_id: message.context.networkMessageId } } : {}),
      // Handed back in the message's statuses (up to 512 characters).
      ...(message.callbackData && message.callbackData.length <= 512 ? { biz_opaque_callback_data: message.callbackData } : {}),
    };
    let payload: Record<string, unknown>;
    if (message.type === "template" && message.template && message.media) {
      // A media header is sent by the id of the file uploaded to the number, like any media.
      const upload = await uploadMedia(message.media);
      if (!upload.ok) return upload.failure;
      message = { ...message, template: { ...message.template, headerMediaId: upload.mediaId } };
    }
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

    async markRead({ networkMessageId, typing }) {
      const response = await callGraph({
        url: joinUrl({ apiBaseUrl, segments: [phoneNumberId, "messages"] }),
        method: "POST",
        accessToken,
        body: {
          json: {
            messaging_product: "whatsapp",
            status: "read",
            message_id: networkMessageId,
            ...(typing ? { typing_indicator: { type: "text" } } : {}),
          },
        },
        timeoutMs,
        policy: urlPolicy,
      });
      if (!response.ok) return redactFailure({ failure: response.failure, accessToken });
      return { ok: true };
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
