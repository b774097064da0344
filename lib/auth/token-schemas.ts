import { z } from "zod";
import type { ApiToken } from "@/db/schema";
import { type Scope, scopeSchema } from "./scopes";

// The api token's shapes: what creating one takes, what listing one shows.

const DAY_MS = 24 * 60 * 60 * 1000;
// Clock skew between a client that computed "now + 1 day" (or "+ 1 year") and this server.
const SKEW_MS = 60 * 1000;
const MIN_TOKEN_LIFETIME_MS = DAY_MS;

/** The latest expiry a new token may have: the same instant one calendar year (UTC) later. */
export function maxTokenExpiry(now = new Date()): Date {
  const max = new Date(now);
  max.setUTCFullYear(max.getUTCFullYear() + 1);
  return max;
}

const isoDateTime = z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2027-01-31T00:00:00Z" });

export const createTokenInput = z.object({
  name: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters"),
  permissions: z
    .array(scopeSchema, { error: "must be a list of scopes" })
    .min(1, "must name at least one scope")
    .transform((list) => [...new Set(list)]),
  expires_at: isoDateTime
    .transform((value) => new Date(value))
    .refine((date) => date.getTime() >= Date.now() + MIN_TOKEN_LIFETIME_MS - SKEW_MS, "must be at least 1 day from now")
    .refine((date) => date.getTime() <= maxTokenExpiry().getTime() + SKEW_MS, "must be at most 1 year from now"),
});
export type CreateTokenInput = z.infer<typeof createTokenInput>;

export const tokenOutput = z.object({
  id: z.string(),
  name: z.string(),
  token_type: z.enum(["api", "session"]),
  permissions: z.array(scopeSchema),
  expires_at: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  user: z.object({ id: z.string(), name: z.string() }).optional(),
});

export function presentToken(row: ApiToken, owner?: { id: string; name: string }) {
  return {
    id: row.id,
    name: row.name,
    token_type: row.kind,
    permissions: row.scopes as Scope[],
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    ...(owner ? { user: owner } : {}),
  };
}
