import { type ApiResult, requestJson } from "@/lib/client/api";
import type { ActivityItem, NoteItem } from "./team-types";
import type { ConversationItem, MessageItem } from "./types";

export type Page<T = MessageItem> = { data: T[]; pagination: { next_cursor: string | null; has_more: boolean } };
/** What opening a conversation brings, in one request. */
export type Opened = ConversationItem & { messages: Page; notes: Page<NoteItem>; activity: Page<ActivityItem> };

/** The newest page of messages a conversation opens with. */
const OPEN_PAGE_SIZE = "50";

/** How long a request sent at the click waits for the conversation view to take it. */
const TAKE_WITHIN_MS = 2_000;

/** The conversation with its newest messages, notes and activity: one request opens it. */
function fetchOpened(conversationId: string) {
  return requestJson<Opened>("GET", `/v1/conversations/${conversationId}?${new URLSearchParams({ include: "messages,notes,activity", limit: OPEN_PAGE_SIZE })}`);
}

const started = new Map<string, { at: number; result: Promise<ApiResult<Opened>> }>();

/**
 * Sent at the click, before the inbox renders the conversation: the server answers while the
 * browser draws the view, instead of after it (the view takes this request rather than sending
 * its own).
 */
export function startOpening(conversationId: string) {
  started.set(conversationId, { at: performance.now(), result: fetchOpened(conversationId) });
}

/** The request sent at the click for this conversation, if recent; else a new one. Each is taken once. */
export function takeOpening(conversationId: string): Promise<ApiResult<Opened>> {
  const sent = started.get(conversationId);
  started.delete(conversationId);
  if (sent && performance.now() - sent.at < TAKE_WITHIN_MS) return sent.result;
  return fetchOpened(conversationId);
}
