import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, ownedBy, ts, updatedAt } from "./columns";

export const accounts = pgTable("accounts", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  // Every user must sign in with a second factor (Settings → Users).
  requireMfa: boolean("require_mfa").notNull().default(false),
  createdAt: createdAt(),
});

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    name: text("name").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ["admin", "agent"] }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastSeenAt: ts("last_seen_at"),
    // What the person said they are; `online` reads as `away` after the account's away delay without activity.
    availability: text("availability", { enum: ["online", "busy", "offline"] }).notNull().default("online"),
    lastActiveAt: ts("last_active_at"),
    // The interface language the person chose; null until they choose (the interface then
    // follows the account's business language).
    locale: text("locale", { enum: ["en", "es", "pt-BR"] }),
    // Deleted users stay so that their messages remain attributed.
    deletedAt: ts("deleted_at"),
  },
  (t) => [
    uniqueIndex("users_email_live_idx")
      .on(sql`lower(${t.email})`)
      .where(sql`${t.deletedAt} is null`),
    index("users_account_created_idx").on(t.accountId, t.createdAt, t.id),
  ],
);

export const apiTokens = pgTable(
  "api_tokens",
  {
    // The token id is the JWT's jti; the token string itself is never stored.
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    userId: ownedBy("user_id", () => users.id),
    kind: text("kind", { enum: ["api", "session", "oauth"] }).notNull(),
    name: text("name").notNull(),
    // An OAuth access token belongs to the grant an app received; revoking the grant revokes it.
    oauthGrantId: text("oauth_grant_id"),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    expiresAt: ts("expires_at").notNull(),
    createdAt: createdAt(),
    lastUsedAt: ts("last_used_at"),
    // A refreshed session stays valid until revoked_at (a short grace); replaced_by names its successor.
    revokedAt: ts("revoked_at"),
    replacedBy: text("replaced_by"),
    // When this session proved the second factor (a code at sign-in, or enrolment confirmed in it).
    secondFactorAt: ts("second_factor_at"),
  },
  (t) => [
    index("api_tokens_account_created_idx").on(t.accountId, t.createdAt, t.id),
    index("api_tokens_user_idx").on(t.userId),
    index("api_tokens_oauth_grant_idx").on(t.oauthGrantId).where(sql`${t.oauthGrantId} is not null`),
  ],
);

export type Account = typeof accounts.$inferSelect;
export type User = typeof users.$inferSelect;
export type ApiToken = typeof apiTokens.$inferSelect;
