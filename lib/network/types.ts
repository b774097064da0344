export type MessageType = "text" | "image" | "document" | "audio" | "video";

export type OutboundMessage = {
  to: string;
  type: MessageType;
  text?: string;
  media?: { mimeType: string; bytes: Buffer; filename?: string; caption?: string };
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
