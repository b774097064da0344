import { z } from "zod";
import "zod-openapi";

// The message kinds beyond text and media: one schema per shape, used by
// POST /v1/messages, the sandbox's simulated customer, the stored `content` and the output.

const messageIdPattern = /^msg_[0-9a-z]{26}$/;

export const messageRef = (description: string) =>
  z
    .string({ error: "must be a message id (msg_...)" })
    .regex(messageIdPattern, "must be a message id (msg_...)")
    .meta({ description, example: "msg_01jd2x8k3f0m6q1v9w4r7t5y2z" });

export const locationContent = z
  .object({
    latitude: z
      .number({ error: "is required: a number from -90 to 90" })
      .min(-90, "must be from -90 to 90")
      .max(90, "must be from -90 to 90")
      .meta({ example: 52.52 }),
    longitude: z
      .number({ error: "is required: a number from -180 to 180" })
      .min(-180, "must be from -180 to 180")
      .max(180, "must be from -180 to 180")
      .meta({ example: 13.405 }),
    name: z.string({ error: "must be a string" }).max(1000, "must be at most 1000 characters").optional().meta({ example: "Plant shop" }),
    address: z.string({ error: "must be a string" }).max(1000, "must be at most 1000 characters").optional().meta({ example: "Alexanderplatz 1, Berlin" }),
  })
  .meta({ id: "Location", description: "A place on the map." });
type LocationContent = z.infer<typeof locationContent>;

export const contactCard = z
  .object({
    name: z.string().min(1).max(500).meta({ example: "Ana Souza" }),
    phones: z.array(z.string().max(100)).max(20).meta({ example: ["+5511987654321"] }),
    emails: z.array(z.string().max(320)).max(20).optional().meta({ example: ["ana@example.com"] }),
  })
  .meta({ id: "ContactCard", description: "A contact card the customer shared." });
type ContactCard = z.infer<typeof contactCard>;

export const reactionContent = z
  .object({
    message_id: messageRef("The message reacted to (of the same conversation)."),
    emoji: z
      .string({ error: "is required: an emoji, or \"\" to remove the reaction" })
      .refine((value) => Array.from(value).length <= 10, "must be one emoji (or empty to remove the reaction)")
      .meta({ description: "One emoji; an empty string removes the reaction.", example: "👍" }),
  })
  .meta({ id: "Reaction", description: "A reaction to a message. It is shown on that message (`reactions`), not as a bubble of its own." });
type ReactionContent = z.infer<typeof reactionContent>;

export const messageReaction = z
  .strictObject({
    emoji: z.string().meta({ example: "👍" }),
    from: z.string().meta({ description: "Who reacted: a number, digits only.", example: "15551234567" }),
  })
  .meta({ id: "MessageReaction" });

const replyButton = z.object({
  id: z.string({ error: "is required (1 to 256 characters)" }).min(1, "must not be empty").max(256, "must be at most 256 characters").meta({ example: "yes" }),
  title: z.string({ error: "is required (1 to 20 characters)" }).trim().min(1, "must not be empty").max(20, "must be at most 20 characters").meta({ example: "Yes, please" }),
});

/** An interactive message the business sends: a text with up to 3 reply buttons. */
const interactiveButtonsInput = z
  .object({
    type: z.literal("button", { error: 'must be "button" (reply buttons)' }),
    body: z.string({ error: "is required (1 to 1024 characters)" }).trim().min(1, "must not be empty").max(1024, "must be at most 1024 characters").meta({ example: "Shall we deliver tomorrow?" }),
    footer: z.string({ error: "must be a string" }).max(60, "must be at most 60 characters").optional(),
    buttons: z
      .array(replyButton, { error: "is required: 1 to 3 reply buttons" })
      .min(1, "needs at least 1 button")
      .max(3, "allows at most 3 buttons")
      .superRefine((buttons, ctx) => {
        const seenIds = new Set<string>();
        const seenTitles = new Set<string>();
        buttons.forEach((button, index) => {
          if (seenIds.has(button.id)) ctx.addIssue({ code: "custom", path: [index, "id"], message: "must be unique" });
          if (seenTitles.has(button.title)) ctx.addIssue({ code: "custom", path: [index, "title"], message: "must be unique" });
          seenIds.add(button.id);
          seenTitles.add(button.title);
        });
      }),
  })
  .meta({ id: "InteractiveButtons", description: "A text with 1 to 3 reply buttons; the customer's tap comes back as an `interactive` `button_reply`." });
type InteractiveButtonsInput = z.infer<typeof interactiveButtonsInput>;

/**
 * A published WhatsApp Flow the business sends (a form the customer fills in on their phone):
 * a text and the button (`cta`) that opens the flow. The customer's answers come back as a
 * message with `flow_response`.
 */
const interactiveFlowInput = z
  .object({
    type: z.literal("flow", { error: 'must be "flow"' }),
    flow_id: z
      .string({ error: "is required: the id of a published flow" })
      .regex(/^[0-9A-Za-z_-]{1,64}$/, "must be the network's id of a published flow (letters, digits, _ or -)")
      .meta({ example: "1197715005513101" }),
    cta: z
      .string({ error: "is required (1 to 20 characters): the label of the button that opens the flow" })
      .trim()
      .min(1, "must not be empty")
      .max(20, "must be at most 20 characters")
      .meta({ example: "Book now" }),
    body: z.string({ error: "is required (1 to 1024 characters)" }).trim().min(1, "must not be empty").max(1024, "must be at most 1024 characters").meta({ example: "Pick a time for your visit." }),
    footer: z.string({ error: "must be a string" }).max(60, "must be at most 60 characters").optional(),
    screen: z
      .string({ error: "must be a string" })
      .regex(/^[A-Za-z0-9_]{1,100}$/, "must be a screen id of the flow (letters, digits, _)")
      .optional()
      .meta({ description: "The screen the flow opens on; without it the network opens the flow's first screen.", example: "BOOKING" }),
    flow_token: z
      .string({ error: "must be a string" })
      .min(1, "must not be empty")
      .max(200, "must be at most 200 characters")
      .optional()
      .meta({ description: "Comes back in the answers' `flow_response.data.flow_token`; defaults to the message's id (`msg_...`)." }),
  })
  .meta({ id: "InteractiveFlow", description: "A published WhatsApp Flow: a text and the button that opens it. The answers come back as an inbound message with `flow_response`." });
type InteractiveFlowInput = z.infer<typeof interactiveFlowInput>;

/** What POST /v1/messages accepts as `interactive`: reply buttons or a flow. */
export const interactiveSendInput = z.discriminatedUnion("type", [interactiveButtonsInput, interactiveFlowInput], {
  error: 'must be reply buttons (type "button") or a flow (type "flow")',
});

/** A customer's answers to a flow, from the network's `nfm_reply`. */
export const flowResponseContent = z
  .object({
    name: z.string().meta({ description: "The reply's name as the network gives it (`flow` for a flow).", example: "flow" }),
    body: z.string().optional().meta({ description: "The line the customer's chat shows for it.", example: "Sent" }),
    data: z.record(z.string(), z.unknown()).meta({
      description: "The answers, field by field, as the flow defined them (`flow_token` included).",
      example: { flow_token: "msg_01jd2x8k3f0m6q1v9w4r7t5y2z", date: "2026-12-01", people: "2" },
    }),
  })
  .meta({ id: "FlowResponse", description: "The answers a customer gave in a WhatsApp Flow; the inbox shows them as a small form." });
type FlowResponseContent = z.infer<typeof flowResponseContent>;

/**
 * An interactive list the business sends (the satisfaction survey): a text, the button that
 * opens the list, and its rows in sections; the customer's choice comes back as a `list_reply`.
 */
const interactiveListContent = z
  .object({
    type: z.literal("list"),
    body: z.string().min(1).max(4096),
    footer: z.string().max(60).optional(),
    button: z.string().min(1).max(20).meta({ description: "The label of the button that opens the list." }),
    sections: z
      .array(
        z.object({
          title: z.string().max(24).optional(),
          rows: z.array(z.object({ id: z.string().min(1).max(200), title: z.string().min(1).max(24), description: z.string().max(72).optional() })).min(1).max(10),
        }),
      )
      .min(1)
      .max(10),
  })
  .meta({ id: "InteractiveList", description: "A text with a list to choose from; the choice comes back as an `interactive` `list_reply`." });
type InteractiveListContent = z.infer<typeof interactiveListContent>;

/** The customer's answer to an interactive message. */
export const interactiveReply = z
  .object({
    type: z.enum(["button_reply", "list_reply"]),
    id: z.string().meta({ description: "The id of the button or list row chosen.", example: "yes" }),
    title: z.string().meta({ description: "Its title, as the customer saw it.", example: "Yes, please" }),
  })
  .meta({ id: "InteractiveReply", description: "The reply button or list row a customer chose." });
type InteractiveReply = z.infer<typeof interactiveReply>;

export const buttonReply = z
  .object({
    text: z.string().meta({ description: "The quick-reply button's text.", example: "Stop promotions" }),
    payload: z.string().meta({ description: "The payload the template defined for it (its text when none).", example: "Stop promotions" }),
  })
  .meta({ id: "TemplateButtonReply", description: "A tap on a template's quick-reply button." });

const templateSendLocation = z.object({
  latitude: z.number({ error: "must be a number from -90 to 90" }).min(-90).max(90),
  longitude: z.number({ error: "must be a number from -180 to 180" }).min(-180).max(180),
  name: z.string().trim().max(1000).optional(),
  address: z.string().trim().max(1000).optional(),
});

export const templateSendInput = z
  .object({
    name: z.string({ error: "is required: the template's name" }).regex(/^[a-z0-9_]{1,512}$/, "must be a template name (a-z, 0-9, _)").meta({ example: "order_shipped" }),
    language: z.string({ error: "is required, e.g. en_US" }).regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, "must be a language code such as en, en_US or pt_BR").meta({ example: "en_US" }),
    variables: z
      .array(z.string({ error: "must be a string" }).trim().min(1, "must not be empty").max(1024, "must be at most 1024 characters"), { error: "must be a list of strings" })
      .max(100)
      .default([])
      .meta({ description: "The values of `{{1}}`, `{{2}}`… of the body, in order; exactly as many as the body has." }),
    header: z
      .object({
        media: z
          .object({
            mime_type: z.string({ error: "is required" }).min(1, "is required"),
            data: z.string({ error: "is required (Base64 of the file)" }).meta({ contentEncoding: "base64" }),
            filename: z.string({ error: "must be a string" }).optional(),
          })
          .optional()
          .meta({ description: "IMAGE, VIDEO or DOCUMENT header: this file instead of the template's own (same rules as when the template was created)." }),
        location: templateSendLocation.optional().meta({ description: "LOCATION header: the place to show; required when the template defines none." }),
      })
      .optional()
      .meta({ description: "What fills the template's header at this send; the template's own file or place when absent." }),
    buttons: z
      .array(
        z.object({
          index: z.int({ error: "must be the button's position, from 0" }).min(0).max(9),
          value: z.string({ error: "must be a string" }).trim().min(1, "must not be empty").max(2000, "must be at most 2000 characters"),
        }),
        { error: "must be a list of {index, value}" },
      )
      .max(10)
      .optional()
      .meta({
        description:
          "Values of the buttons by position: a URL button's `{{1}}` suffix, a COPY_CODE button's code (at most 15 characters), a QUICK_REPLY button's payload. A button given none uses the template's example (its text for a quick reply).",
      }),
  })
  .meta({ id: "TemplateSend", description: "An APPROVED template of the account, the values of its variables, and what fills its header and buttons." });

/** A template's button as the customer sees it: the address with its suffix, the code to copy. */
const templateButtonContent = z
  .object({
    index: z.int().min(0).meta({ description: "The button's position in the template." }),
    type: z.enum(["QUICK_REPLY", "URL", "PHONE_NUMBER", "COPY_CODE"]),
    text: z.string().meta({ description: "The label shown (\"Copy code\" for COPY_CODE)." }),
    url: z.string().optional().meta({ description: "URL: the address opened, suffix included." }),
    phone_number: z.string().optional(),
    value: z.string().optional().meta({ description: "What this send gave the button: a URL's suffix, the code copied (COPY_CODE), what a tap sends back (QUICK_REPLY)." }),
  })
  .meta({ id: "TemplateButtonContent" });
export type TemplateButtonContent = z.infer<typeof templateButtonContent>;

export const templateContent = z
  .object({
    name: z.string(),
    language: z.string(),
    variables: z.array(z.string()),
    category: z.enum(["MARKETING", "UTILITY", "AUTHENTICATION"]).optional(),
    header: z
      .object({ format: z.enum(["TEXT", "IMAGE", "VIDEO", "DOCUMENT", "LOCATION"]), text: z.string().optional(), location: templateSendLocation.optional() })
      .optional()
      .meta({ description: "The header as sent: its text, its place, or (IMAGE, VIDEO, DOCUMENT) the file in the message's `media`." }),
    footer: z.string().optional(),
    buttons: z.array(templateButtonContent).optional(),
  })
  .meta({ id: "TemplateMessage", description: "The template a message was sent from, as the customer sees it; `text` holds the rendered body." });
export type TemplateContent = z.infer<typeof templateContent>;

export const contextInput = z
  .object({ message_id: messageRef("The message replied to; it must belong to the same conversation.") })
  .meta({ id: "MessageContext", description: "The message this one replies to (shown as a quote)." });

export const unsupportedContent = z
  .object({ network_type: z.string().meta({ description: "The kind the network named.", example: "order" }) })
  .meta({ id: "UnsupportedMessage", description: "A kind Chorus cannot show; the inbox says \"Unsupported message (…)\"." });

export const interactiveOutput = z.union([interactiveReply, interactiveButtonsInput, interactiveListContent, interactiveFlowInput]).meta({
  id: "Interactive",
  description:
    "Inbound: the customer's `button_reply` or `list_reply` `{type, id, title}` (a flow's answers are in `flow_response`). Outbound: the reply buttons sent `{type: \"button\", body, buttons}`, a list `{type: \"list\", body, button, sections}` or a flow `{type: \"flow\", flow_id, cta, body}`.",
});

/** The fields kept in a message's `content`, each named as in the API. */
export type MessageKindContent = {
  location?: LocationContent;
  contacts?: ContactCard[];
  reaction?: ReactionContent;
  interactive?: InteractiveReply | InteractiveButtonsInput | InteractiveListContent | InteractiveFlowInput;
  flow_response?: FlowResponseContent;
  button?: { text: string; payload: string };
  template?: TemplateContent;
  unsupported?: { network_type: string };
};

/** A one-line stand-in for a kind in previews and quotes. */
export function describeKind({ type, content, text }: { type: string; content?: MessageKindContent | null; text?: string | null }): string | null {
  switch (type) {
    case "location":
      return `📍 ${content?.location?.name || content?.location?.address || "Location"}`;
    case "contacts": {
      const cards = content?.contacts ?? [];
      return cards.length === 1 ? `👤 ${cards[0].name}` : `👤 ${cards.length} contacts`;
    }
    case "sticker":
      return "Sticker";
    case "reaction":
      return content?.reaction?.emoji ? `Reacted ${content.reaction.emoji}` : "Removed a reaction";
    case "interactive": {
      const interactive = content?.interactive;
      if (content?.flow_response) return "📝 Form answers";
      if (!interactive) return "Interactive message";
      return "body" in interactive ? interactive.body : interactive.title;
    }
    case "button":
      return content?.button?.text ?? "Button";
    case "template":
      return text ?? `Template ${content?.template?.name ?? ""}`.trim();
    case "unsupported":
      return `Unsupported message (${content?.unsupported?.network_type ?? "unknown"})`;
    default:
      return null;
  }
}
