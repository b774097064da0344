export type MessageType = "text" | "image" | "document" | "audio" | "video";

/** A customer's choice in an interactive message, as the network reports it. */
export type InteractiveReply = { type: "button_reply" | "list_reply"; id: string; title: string };

/** An interactive list (one section of choices) sent instead of plain text. */
export type OutboundList = { type: "list"; body: string; button: string; rows: { id: string; title: string; description?: string }[] };

export type OutboundMessage = {
  to: string;
  type: MessageType;
  text?: string;
  media?: { mimeType: string; bytes: Buffer; filename?: string; caption?: string };
  interactive?: OutboundList;
};

export type SendResult =
  | { ok: true; networkMessageId: string }
  | { ok: false; retryable: boolean; status?: number; code: string; message: string };

export type NetworkAdapter = {
  send(message: OutboundMessage): Promise<SendResult>;
  testConnection(): Promise<{ ok: boolean; message: string }>;
};

export type InboundMessage = {
  networkMessageId: string;
  from: string;
  name?: string;
  timestamp: Date;
  type: MessageType;
  text?: string;
  media?: { networkMediaId: string; mimeType: string; filename?: string; caption?: string };
  interactive?: InteractiveReply;
  // One webhook can batch several numbers of the same business account; this says which one.
  phoneNumberId?: string;
};

export type StatusUpdate = {
  networkMessageId: string;
  status: "sent" | "delivered" | "read" | "failed";
  timestamp: Date;
  error?: { code: string; message: string };
  phoneNumberId?: string;
};
