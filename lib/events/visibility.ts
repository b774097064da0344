import type { AuthContext } from "@/lib/auth/tokens";
import type { Scope } from "@/lib/auth/scopes";
import { roleAllows } from "@/lib/auth/scopes";
import type { EventType } from "./types";

export const READ_SCOPE_BY_EVENT_PREFIX: Record<string, Scope> = {
  conversation: "conversations:read",
  contact: "contacts:read",
  message: "messages:read",
  user: "users:read",
  webhook: "webhooks:read",
  note: "conversations:read",
  agent: "conversations:read",
  template: "config:read",
  automation: "conversations:read",
  sla: "conversations:read",
};

/** The scope a reader needs to see an event of this type (none for plant.created). */
function scopeForEvent(type: EventType | string): Scope | null {
  return READ_SCOPE_BY_EVENT_PREFIX[type.split(".")[0]] ?? null;
}

/**
 * Events that never reach the live stream: webhook.verified carries a webhook's challenge
 * and is sent only to that webhook.
 */
export const UNSTREAMED_EVENT_TYPES: readonly EventType[] = ["webhook.verified"];

export function isStreamedEvent(type: string): boolean {
  return !(UNSTREAMED_EVENT_TYPES as readonly string[]).includes(type);
}

export function canSeeEvent(ctx: AuthContext, type: string): boolean {
  if (!isStreamedEvent(type)) return false;
  const scope = scopeForEvent(type);
  if (!scope) return true;
  return ctx.token.scopes.includes(scope) && roleAllows(ctx.user.role, scope);
}
