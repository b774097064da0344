import { type ApiResult, requestJson } from "@/lib/client/api";
import type { MessageItem } from "../types";

/** Sends a message of any kind through POST /v1/messages (the same route the API documents). */
export function sendKind(body: Record<string, unknown>): Promise<ApiResult<MessageItem>> {
  return requestJson<MessageItem>("POST", "/v1/messages", body);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Until when free-form messages can be sent: the conversation's window, or the newest customer
 * message loaded + 24 h when that is later (a live message moves the window before the
 * conversation is fetched again). Null when the customer has never written.
 */
export function windowEnd(conversationWindow: string | null | undefined, messages: MessageItem[]): number | null {
  let end = conversationWindow ? new Date(conversationWindow).getTime() : null;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.direction !== "inbound") continue;
    const candidate = new Date(message.timestamp).getTime() + DAY_MS;
    if (end === null || candidate > end) end = candidate;
    break;
  }
  return end;
}
