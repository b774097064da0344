import { z } from "zod";

export const scopes = [
  "conversations:read",
  "conversations:write",
  "conversations:delete",
  "messages:read",
  "messages:write",
  "messages:delete",
  "users:read",
  "users:write",
  "users:delete",
  "reports:read",
  "webhooks:read",
  "webhooks:write",
  "webhooks:delete",
  "config:read",
  "config:write",
  "audit:read",
  "apps:read",
  "apps:write",
  "contacts:read",
  "contacts:write",
  "teams:read",
  "teams:write",
] as const;

export type Scope = (typeof scopes)[number];
export const scopeSchema = z.enum(scopes);

export const roles = ["admin", "agent"] as const;
export type Role = (typeof roles)[number];
export const roleSchema = z.enum(roles);

const adminOnly = new Set<Scope>([
  "conversations:delete",
  "messages:delete",
  "users:write",
  "users:delete",
  "webhooks:read",
  "webhooks:write",
  "webhooks:delete",
  "config:write",
  "audit:read",
  "apps:read",
  "apps:write",
  "teams:write",
]);

/** The scope table: which scopes each role may hold. */
export function roleAllows(role: Role, scope: Scope): boolean {
  return role === "admin" || !adminOnly.has(scope);
}

export function scopesForRole(role: Role): Scope[] {
  return scopes.filter((scope) => roleAllows(role, scope));
}

/** Scopes grouped by area, for the token form. */
export const scopeGroups = scopes.reduce<Record<string, Scope[]>>((groups, scope) => {
  const area = scope.split(":")[0];
  (groups[area] ??= []).push(scope);
  return groups;
}, {});
