import { z } from "zod";
import type { InboundMessage, OutboundMessage } from "@/lib/network/types";

// The network's message kinds beyond text and media, both ways: what an inbound notification
// carries for each, and the request body of a send. A kind whose payload is malformed is
// skipped with a logged code, never stored half.

const locationSchema = z.looseObject({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  name: z.string().optional(),
  address: z.string().optional(),
});

const contactSchema = z.looseObject({
  name: z.looseObject({ formatted_name: z.string().optional(), first_name: z.string().optional(), last_name: z.string().optional() }),
  phones: z.array(z.looseObject({ phone: z.string().optional(), wa_id: z.string().optional() })).optional(),
  emails: z.array(z.looseObject({ email: z.string().optional() })).optional(),
});

const reactionSchema = z.looseObject({ message_id: z.string().min(1), emoji: z.string().optional() });

const replySchema = z.looseObject({ id: z.string().min(1), title: z.string() });
const interactiveSchema = z.looseObject({
  type: z.enum(["button_reply", "list_reply"]),
  button_reply: replySchema.optional(),
  list_reply: replySchema.optional(),
});

// A flow's answers: `response_json` is a JSON object as a string.
const nfmReplySchema = z.looseObject({
  type: z.literal("nfm_reply"),
  nfm_reply: z.looseObject({ name: z.string().max(200).optional(), body: z.string().max(4096).optional(), response_json: z.string().max(64 * 1024) }),
});

/** The answers of a flow as an object, or null when `response_json` is not a JSON object. */
function flowAnswers(responseJson: string): Record<string, unknown> | null {
  try {
    const data: unknown = JSON.parse(responseJson);
    return data !== null && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const buttonSchema = z.looseObject({ text: z.string(), payload: z.string().optional() });

const contextSchema = z.looseObject({ id: z.string().min(1) });

const stickerSchema = z.looseObject({ id: z.string().min(1), mime_type: z.string().optional() });

type Base = Omit<InboundMessage, "type">;
type Kind = { type: string } & Record<string, unknown>;

/** Logged instead of stored: the code and the network's type name, never the content. */
function skip(code: string, type: string): null {
  console.warn(`network webhook: skipped a message (${code}, type ${type.replace(/[^\w-]/g, "?").slice(0, 40)})`);
  return null;
}

/** The quoted message of an inbound message, when the network names one. */
export function contextOf(message: Record<string, unknown>): InboundMessage["context"] | undefined {
  const parsed = contextSchema.safeParse(message.context);
  return parsed.success ? { networkMessageId: parsed.data.id } : undefined;
}

/**
 * An inbound message of a kind other than text and the media kinds, or null when its payload
 * is malformed (then logged by code). Kinds Chorus cannot show become `unsupported`.
 */
export function toInboundKind(message: Kind, base: Base): InboundMessage | null {
  const type = message.type;
  switch (type) {
    case "location": {
      const parsed = locationSchema.safeParse(message.location);
      if (!parsed.success) return skip("malformed_location", type);
      const { latitude, longitude, name, address } = parsed.data;
      return { ...base, type: "location", content: { location: { latitude, longitude, ...(name ? { name } : {}), ...(address ? { address } : {}) } } };
    }
    case "contacts": {
      const parsed = z.array(contactSchema).min(1).safeParse(message.contacts);
      if (!parsed.success) return skip("malformed_contacts", type);
      const cards = parsed.data.map((card) => {
        const name = card.name.formatted_name || [card.name.first_name, card.name.last_name].filter(Boolean).join(" ") || "Contact";
        const phones = (card.phones ?? []).map((p) => p.phone ?? p.wa_id).filter((p): p is string => Boolean(p));
        const emails = (card.emails ?? []).map((e) => e.email).filter((e): e is string => Boolean(e));
        return { name, phones, ...(emails.length > 0 ? { emails } : {}) };
      });
      return { ...base, type: "contacts", content: { contacts: cards } };
    }
    case "sticker": {
      const parsed = stickerSchema.safeParse(message.sticker);
      if (!parsed.success) return skip("malformed_sticker", type);
      return { ...base, type: "sticker", media: { networkMediaId: parsed.data.id, mimeType: parsed.data.mime_type ?? "image/webp" } };
    }
    case "reaction": {
      const parsed = reactionSchema.safeParse(message.reaction);
      if (!parsed.success) return skip("malformed_reaction", type);
      return { ...base, type: "reaction", reaction: { networkMessageId: parsed.data.message_id, emoji: parsed.data.emoji ?? "" } };
    }
    case "interactive": {
      const flow = nfmReplySchema.safeParse(message.interactive);
      if (flow.success) {
        const data = flowAnswers(flow.data.nfm_reply.response_json);
        if (!data) return skip("malformed_nfm_reply", type);
        const { name, body } = flow.data.nfm_reply;
        return { ...base, type: "interactive", content: { flow_response: { name: name ?? "flow", ...(body ? { body } : {}), data } } };
      }
      const parsed = interactiveSchema.safeParse(message.interactive);
      const reply = parsed.success ? parsed.data[parsed.data.type] : undefined;
      if (!parsed.success || !reply) return skip("malformed_interactive", type);
      return { ...base, type: "interactive", content: { interactive: { type: parsed.data.type, id: reply.id, title: reply.title } } };
    }
    case "button": {
      const parsed = buttonSchema.safeParse(message.button);
      if (!parsed.success) return skip("malformed_button", type);
      return { ...base, type: "button", content: { button: { text: parsed.data.text, payload: parsed.data.payload ?? parsed.data.text } } };
    }
    default:
      // "unsupported", "unknown", "order", "system", "request_welcome"…: kept so nothing vanishes.
      return { ...base, type: "unsupported", content: { unsupported: { network_type: String(type).slice(0, 64) } } };
  }
}

/**
 * The action of a flow message: a published flow by id, the button's label, and the screen it
 * opens on when one is named (`navigate`); without one the network opens the first screen.
 */
function flowAction(flow: Extract<NonNullable<OutboundMessage["interactive"]>, { type: "flow" }>) {
  return {
    name: "flow",
    parameters: {
      flow_message_version: "3",
      flow_id: flow.flow_id,
      flow_cta: flow.cta,
      ...(flow.flow_token ? { flow_token: flow.flow_token } : {}),
      ...(flow.screen ? { flow_action: "navigate", flow_action_payload: { screen: flow.screen } } : {}),
    },
  };
}

/** The body of `POST /{phone_number_id}/messages` for the kinds beyond text and media. */
export function kindPayload(message: OutboundMessage): { ok: true; payload: Record<string, unknown> } | { ok: false; message: string } {
  switch (message.type) {
    case "location":
      return message.location ? { ok: true, payload: { location: message.location } } : { ok: false, message: "A location message needs a location." };
    case "reaction":
      return message.reaction
        ? { ok: true, payload: { reaction: { message_id: message.reaction.networkMessageId, emoji: message.reaction.emoji } } }
        : { ok: false, message: "A reaction needs the message reacted to." };
    case "interactive": {
      const interactive = message.interactive;
      if (!interactive) return { ok: false, message: "An interactive message needs its content." };
      const action =
        interactive.type === "button"
          ? { buttons: interactive.buttons.map((b) => ({ type: "reply", reply: { id: b.id, title: b.title } })) }
          : interactive.type === "flow"
            ? flowAction(interactive)
            : { button: interactive.button, sections: interactive.sections };
      return {
        ok: true,
        payload: {
          interactive: {
            type: interactive.type,
            body: { text: interactive.body },
            ...(interactive.footer ? { footer: { text: interactive.footer } } : {}),
            action,
          },
        },
      };
    }
    case "template": {
      const template = message.template;
      if (!template) return { ok: false, message: "A template message needs its template." };
      const components: Record<string, unknown>[] = [];
      const header = template.header;
      if (header?.format === "LOCATION" && header.location) {
        components.push({ type: "header", parameters: [{ type: "location", location: header.location }] });
      } else if (header && (header.format === "IMAGE" || header.format === "VIDEO" || header.format === "DOCUMENT")) {
        if (!template.headerMediaId) return { ok: false, message: `The template's ${header.format} header needs its file.` };
        const kind = header.format.toLowerCase();
        const filename = header.format === "DOCUMENT" && message.media?.filename ? { filename: message.media.filename } : {};
        components.push({ type: "header", parameters: [{ type: kind, [kind]: { id: template.headerMediaId, ...filename } }] });
      }
      if (template.variables.length > 0) components.push({ type: "body", parameters: template.variables.map((text) => ({ type: "text", text })) });
      for (const button of template.buttons ?? []) {
        const parameter =
          button.type === "URL"
            ? { type: "text", text: button.value }
            : button.type === "COPY_CODE"
              ? { type: "coupon_code", coupon_code: button.value }
              : { type: "payload", payload: button.value };
        components.push({ type: "button", sub_type: button.type.toLowerCase(), index: String(button.index), parameters: [parameter] });
      }
      return {
        ok: true,
        payload: { template: { name: template.name, language: { code: template.language }, ...(components.length > 0 ? { components } : {}) } },
      };
    }
    default:
      return { ok: false, message: `Unknown message type ${message.type}.` };
  }
}
