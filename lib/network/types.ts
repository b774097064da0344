/** Text and the media kinds: what every path of the first build carries. */
export const messageTypes = ["text", "image", "document", "audio", "video"] as const;
export type MessageType = (typeof messageTypes)[number];

/** What a send carries besides text and media, in the network's own terms. */
type OutboundKind = "location" | "reaction" | "interactive" | "template";
/** A customer's choice in an interactive message, as the network reports it. */
export type InteractiveReply = { type: "button_reply" | "list_reply"; id: string; title: string };

/** An interactive list (one section of choices) sent instead of plain text. */
export type OutboundList = { type: "list"; body: string; button: string; rows: { id: string; title: string; description?: string }[] };

export type OutboundMessage = {
  /** The customer's number (digits), or their business-scoped user id (sent as `recipient`). */
  to: string;
  type: MessageType | OutboundKind;
  text?: string;
  media?: { mimeType: string; bytes: Buffer; filename?: string; caption?: string };
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  /** The network's id of the message reacted to; an empty emoji removes the reaction. */
  reaction?: { networkMessageId: string; emoji: string };
  /**
   * Reply buttons (`type: "button"`, 1 to 3 buttons) or a list (`type: "list"`, its rows in
   * sections): the body text, an optional footer, and what the customer can choose.
   */
  interactive?:
    | { type: "button"; body: string; footer?: string; buttons: { id: string; title: string }[] }
    | { type: "list"; body: string; footer?: string; button: string; sections: { title?: string; rows: { id: string; title: string; description?: string }[] }[] }
    | { type: "flow"; body: string; footer?: string; flow_id: string; cta: string; screen?: string; flow_token?: string };
  /**
   * A template by name and language, with the values of its body's variables in order, its
   * header (a media header's file travels in `media`) and the values of its buttons by index.
   */
  template?: {
    name: string;
    language: string;
    variables: string[];
    header?: { format: string; location?: { latitude: number; longitude: number; name?: string; address?: string } };
    buttons?: { index: number; type: "QUICK_REPLY" | "URL" | "COPY_CODE"; value: string }[];
    /** Set by the adapter once the header's file is uploaded. */
    headerMediaId?: string;
  };
  /** The network's id of the message replied to. */
  context?: { networkMessageId: string };
  /**
   * Our id of the message, which the network hands back in each status it reports for it: a
   * status can then be matched even when the process stopped before it recorded the network's id.
   */
  callbackData?: string;
};

/** The inbound kinds beyond text and media. */
type InboundKind = "sticker" | "location" | "contacts" | "reaction" | "interactive" | "button" | "unsupported";

export type SendResult =
  | { ok: true; networkMessageId: string }
  | { ok: false; retryable: boolean; status?: number; code: string; message: string };

type SignalResult = { ok: true } | { ok: false; retryable: boolean; status?: number; code: string; message: string };

export type NetworkAdapter = {
  send(message: OutboundMessage): Promise<SendResult>;
  /**
   * Tells the customer their message (and those before it) was read; with `typing`, also shows
   * them the typing indicator (the network clears it after 25 s or at the next message).
   */
  markRead(input: { networkMessageId: string; typing: boolean }): Promise<SignalResult>;
  testConnection(): Promise<{ ok: boolean; message: string }>;
};

export type InboundMessage = {
  networkMessageId: string;
  /** The customer's address: their number (digits) when the network gave it, else their business-scoped user id. */
  from: string;
  /** The customer's number, when the network gave it (a customer with a username may have none). */
  phone?: string;
  /** The customer's business-scoped user id (BSUID), when the network gave it. */
  userId?: string;
  /** The customer's WhatsApp username, when they adopted one. */
  username?: string;
  name?: string;
  timestamp: Date;
  type: MessageType | InboundKind;
  text?: string;
  media?: { networkMediaId: string; mimeType: string; filename?: string; caption?: string };
  /** location, contacts, interactive, button or unsupported, keyed as the API shows them. */
  content?: Record<string, unknown>;
  /** For a reaction: the network's id of the message reacted to, and the emoji ("" removes it). */
  reaction?: { networkMessageId: string; emoji: string };
  /** The network's id of the message quoted. */
  context?: { networkMessageId: string };
  /** The customer's choice in an interactive message (the survey's list). */
  interactive?: InteractiveReply;
  // One webhook can batch several numbers of the same business account; this says which one.
  phoneNumberId?: string;
};

export type StatusUpdate = {
  /** What the send carried as its callback data (our id of the message), when the network echoes it. */
  callbackData?: string;
  networkMessageId: string;
  status: "sent" | "delivered" | "read" | "failed";
  timestamp: Date;
  error?: { code: string; message: string };
  phoneNumberId?: string;
  /** The network's charge for the message: its category (marketing, utility, authentication, service…) and whether it is billed. */
  pricing?: { category: string; billable: boolean; pricing_model?: string };
};

/**
 * A customer's edit or deletion ("revoke") of a message they sent earlier, named by the
 * network's id of that message. An edit carries the new text (or the new caption of a media
 * message).
 */
export type InboundRevision = {
  kind: "edit" | "revoke";
  /** The network's id of the message edited or deleted. */
  networkMessageId: string;
  /** The network's id of the notification itself, so a redelivery is applied once. */
  revisionId: string;
  /** The customer's number, digits only ("" when the network withheld it). */
  from: string;
  /** The customer's business-scoped user id, when the network gave one. */
  fromUserId?: string;
  timestamp: Date;
  text?: string;
  caption?: string;
  phoneNumberId?: string;
};

/**
 * A message the business sent from the business app on a number in coexistence, as the
 * network echoes it: it belongs in the inbox so agents see the whole conversation, including
 * what was answered from a phone.
 */
export type BusinessAppEcho = {
  phoneNumberId?: string;
  networkMessageId: string;
  to: string;
  type: MessageType;
  text?: string;
  caption?: string;
  filename?: string;
  timestamp?: Date;
};

/** A past message of a number in coexistence, synced from the business app's history. */
export type HistoryMessage = {
  /** The customer's number (the thread). */
  thread: string;
  /** Whether the customer sent it (else the business did, from the app). */
  direction: "inbound" | "outbound";
  /** The network's status of a business message when it was synced. */
  status?: "sent" | "delivered" | "read" | "failed";
  message: InboundMessage;
};

/** Coexistence sync: a past message, or a contact of the business app's address book. */
export type CoexistenceSyncItem =
  | { kind: "history"; phoneNumberId?: string; message: HistoryMessage }
  | { kind: "contact"; phoneNumberId?: string; phone: string; name: string | null };

/** The network's review of a template (approved, rejected, paused…), for a business account. */
export type TemplateStatusUpdate = {
  businessAccountId: string;
  networkTemplateId?: string;
  name?: string;
  language?: string;
  event: string;
  reason?: string;
};

/** The network's report that a number's quality or messaging limit changed. */
export type QualityUpdate = {
  /** The business account (WABA) the notification came for. */
  businessAccountId?: string;
  /** The business number, digits only. */
  displayPhoneNumber: string;
  /** FLAGGED, UNFLAGGED, DOWNGRADE, UPGRADE, ONBOARDING, THROUGHPUT_UPGRADE… */
  event: string;
  /** The messaging limit tier now (TIER_50 … TIER_UNLIMITED), when given. */
  currentLimit?: string;
  oldLimit?: string;
};

/** Everything one webhook notification from the network reports, each list empty when absent. */
export type NetworkNotification = {
  /** The number of the first `messages` change (a batch may concern several numbers). */
  phoneNumberId?: string;
  messages: InboundMessage[];
  statuses: StatusUpdate[];
  /** The customers' edits and deletions of earlier messages. */
  revisions: InboundRevision[];
  echoes: BusinessAppEcho[];
  coexistence: CoexistenceSyncItem[];
  templateStatuses: TemplateStatusUpdate[];
  qualityUpdates: QualityUpdate[];
};
