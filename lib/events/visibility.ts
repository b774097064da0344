import type { AuthContext } from "@/lib/auth/tokens";
import type { Scope } from "@/lib/auth/scopes";
import { roleAllows } from "@/lib/auth/scopes";
import type { EventType } from "./types";

const scopeByPrefix: Record<string, Scope> = {
  conversation: "conversations:read",
  message: "messages:read",
  user: "users:read",
  webhook: "webhooks:read",
};

/** The scope a reader needs to see an event of this type (none for plant.created). */
export function scopeForEvent(type: EventType | string): Scope | null {
  return scopeByPrefix[type.split(".")[0]] ?? null;
}

export function canSeeEvent(ctx: AuthContext, type: string): boolean {
  const scope = scopeForEvent(type);
  if (!scope) return true;
  return ctx.token.scopes.includes(scope) && roleAllows(ctx.user.role, scope);
}
