import type { Priority } from "@/components/team/priority-control";
import type { SlaState } from "@/components/team/sla-badge";
import type { UnsentReason } from "./outbox";
export type Teammate = { id: string; name: string; email: string; role: "admin" | "agent" };

export type ConversationItem = {
  id: string;
  status: "open" | "assigned" | "closed" | "snoozed";
  assigned_to: string | null;
  assigned_at?: string | null;
  contact: { id: string; phone: string | null; network_user_id?: string | null; username?: string | null; name: string | null };
  last_message_at: string | null;
  last_message_preview?: string | null;
  unread_count: number;
  created_at: string;
  closed_at?: string | null;
  snoozed_until?: string | null;
  labels?: LabelRef[];
  /** The customer's last message + 24 h: free-form replies until then, templates after. */
  service_window_expires_at?: string | null;
  team_id?: string | null;
  priority?: Priority | null;
  sla?: SlaState | null;
};

export type LabelRef = { id: string; name: string; color: string };

type MessageMedia = { id?: string; mime_type: string; filename?: string | null; caption?: string | null; size?: number };

export type MessageItem = {
  id: string;
  conversation_id: string;
  direction: "inbound" | "outbound";
  from: string;
  to: string;
  type: "text" | "image" | "document" | "audio" | "video" | "sticker" | "location" | "contacts" | "reaction" | "interactive" | "button" | "template" | "unsupported";
  text?: string | null;
  media?: MessageMedia | null;
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  contacts?: { name: string; phones: string[]; emails?: string[] }[];
  reaction?: { message_id: string; emoji: string };
  interactive?:
    | { type: "button_reply" | "list_reply"; id: string; title: string }
    | { type: "button"; body: string; footer?: string; buttons: { id: string; title: string }[] }
    | { type: "list"; body: string; footer?: string; button?: string; sections?: { title?: string; rows: { id: string; title: string }[] }[] }
    | { type: "flow"; body: string; footer?: string; flow_id: string; cta: string; screen?: string };
  /** A customer's answers to a WhatsApp Flow. */
  flow_response?: { name: string; body?: string; data: Record<string, unknown> };
  button?: { text: string; payload: string };
  template?: {
    name: string;
    language: string;
    variables: string[];
    category?: string;
    header?: { format: "TEXT" | "IMAGE" | "VIDEO" | "DOCUMENT" | "LOCATION"; text?: string; location?: { latitude: number; longitude: number; name?: string; address?: string } };
    footer?: string;
    buttons?: { index: number; type: "QUICK_REPLY" | "URL" | "PHONE_NUMBER" | "COPY_CODE"; text: string; url?: string; phone_number?: string; value?: string }[];
  };
  unsupported?: { network_type: string };
  reactions?: { emoji: string; from: string }[];
  context?: { message_id: string };
  status: "queued" | "sent" | "delivered" | "read" | "failed" | "received";
  sender: { type: "user" | "contact" | "automation"; user_id?: string | null };
  error?: { code: string; message: string } | null;
  timestamp: string;
  deleted_at?: string | null;
  /** When the customer last edited it. */
  edited_at?: string | null;
  /** Client-only: a send that has not been accepted by the server yet. */
  local?: { state: "sending" | "waiting" | "error"; reason?: UnsentReason | string; retry?: () => void; discard?: () => void };
};

export type EventEnvelope = { id: string; type: string; created_at: string; data: Record<string, unknown> };

export const displayName = (c: ConversationItem["contact"]) => c.name?.trim() || contactAddressLabel(c);
/** How the customer is reached, for an unnamed contact or under the name: +number, else @username, else the BSUID. */
export const contactAddressLabel = (c: ConversationItem["contact"]) => (c.phone ? `+${c.phone}` : c.username || c.network_user_id || "");

/**
 * The inbox list's page size; its first page (All, no search) comes with the page itself. (Kept
 * here, not in the client component: a server module importing a value from a "use client"
 * module gets a reference, not the value.)
 */
export const INITIAL_LIST_LIMIT = 30;
