import type { ConversationOutput } from "@/lib/conversations/schemas";
import type { MessageOutput } from "@/lib/messages/schemas";
import type { UnsentReason } from "./outbox";
export type Teammate = { id: string; name: string; email: string; role: "admin" | "agent" };

/** A conversation as the API sends it (`GET /v1/conversations/{id}`, the inbox's list). */
export type ConversationItem = ConversationOutput;

export type LabelRef = { id: string; name: string; color: string };

type StoredMedia = NonNullable<MessageOutput["media"]>;
/** A reply's file before it is stored has no id, hash or address yet. */
type MessageMedia = Omit<StoredMedia, "id" | "sha256" | "url"> & Partial<Pick<StoredMedia, "id" | "sha256" | "url">>;

/** A message as the API sends it, or one of this browser's replies not stored yet (`local`). */
export type MessageItem = Omit<MessageOutput, "media"> & {
  media?: MessageMedia;
  /** Client-only: a send that has not been accepted by the server yet. */
  local?: { state: "sending" | "waiting" | "error"; reason?: UnsentReason | string; retry?: () => void; discard?: () => void };
};

export type EventEnvelope = { id: string; type: string; created_at: string; data: Record<string, unknown> };

/** What names a customer: any contact the API sends (a conversation's, a notification's) has these. */
type ContactNames = Pick<ConversationItem["contact"], "name" | "phone"> & Partial<Pick<ConversationItem["contact"], "username" | "network_user_id">>;

export const displayName = (c: ContactNames) => c.name?.trim() || contactAddressLabel(c);
/** How the customer is reached, for an unnamed contact or under the name: +number, else @username, else the BSUID. */
export const contactAddressLabel = (c: ContactNames) => (c.phone ? `+${c.phone}` : c.username || c.network_user_id || "");

/**
 * The inbox list's page size; its first page (All, no search) comes with the page itself. (Kept
 * here, not in the client component: a server module importing a value from a "use client"
 * module gets a reference, not the value.)
 */
export const INITIAL_LIST_LIMIT = 30;
