import { bigint, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts, users } from "./accounts";
import { createdAt, ownedBy, ts } from "./columns";

// Integrations and team administration: OAuth apps, invitations, password resets, two-factor
// sign-in, audit log. Every secret handed out (client secret, code, refresh token, invitation and
// reset links) is stored as its SHA-256 only; TOTP secrets are sealed with the secrets-at-rest key.

export const oauthApps = pgTable(
  "oauth_apps",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    name: text("name").notNull(),
    clientId: text("client_id").notNull(),
    clientType: text("client_type", { enum: ["confidential", "public"] }).notNull(),
    clientSecretHash: text("client_secret_hash"),
    redirectUris: jsonb("redirect_uris").$type<string[]>().notNull(),
    allowedScopes: jsonb("allowed_scopes").$type<string[]>().notNull(),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    deletedAt: ts("deleted_at"),
  },
  (t) => [
    uniqueIndex("oauth_apps_client_id_idx").on(t.clientId),
    index("oauth_apps_account_created_idx").on(t.accountId, t.createdAt, t.id),
  ],
);

export const oauthGrants = pgTable(
  "oauth_grants",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    appId: ownedBy("app_id", () => oauthApps.id),
    userId: ownedBy("user_id", () => users.id),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    /** When the session that approved the grant had proved the second factor; null if it had not. */
    secondFactorAt: ts("second_factor_at"),
    createdAt: createdAt(),
    revokedAt: ts("revoked_at"),
    revokedReason: text("revoked_reason"),
  },
  (t) => [index("oauth_grants_user_created_idx").on(t.userId, t.createdAt, t.id)],
);

export const oauthCodes = pgTable(
  "oauth_codes",
  {
    codeHash: text("code_hash").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    grantId: ownedBy("grant_id", () => oauthGrants.id),
    redirectUri: text("redirect_uri").notNull(),
    codeChallenge: text("code_challenge").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("oauth_codes_grant_idx").on(t.grantId)],
);

export const oauthRefreshTokens = pgTable(
  "oauth_refresh_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    grantId: ownedBy("grant_id", () => oauthGrants.id),
    expiresAt: ts("expires_at").notNull(),
    // Set when the token was exchanged for the next one: presenting it again is a reuse.
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("oauth_refresh_tokens_grant_idx").on(t.grantId)],
);

export const invitations = pgTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    email: text("email").notNull(),
    role: text("role", { enum: ["admin", "agent"] }).notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: text("invited_by"),
    expiresAt: ts("expires_at").notNull(),
    acceptedAt: ts("accepted_at"),
    acceptedUserId: text("accepted_user_id"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("invitations_token_hash_idx").on(t.tokenHash),
    index("invitations_account_created_idx").on(t.accountId, t.createdAt, t.id),
  ],
);

export const passwordResets = pgTable(
  "password_resets",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    userId: ownedBy("user_id", () => users.id),
    tokenHash: text("token_hash").notNull(),
    createdBy: text("created_by"),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("password_resets_token_hash_idx").on(t.tokenHash), index("password_resets_user_idx").on(t.userId)],
);

export const userMfa = pgTable("user_mfa", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  accountId: ownedBy("account_id", () => accounts.id),
  secretEnc: text("secret_enc").notNull(),
  // Null while enrolment awaits its first code.
  enabledAt: ts("enabled_at"),
  // The TOTP time step of the last accepted code: the same code never signs in twice.
  lastUsedStep: bigint("last_used_step", { mode: "number" }),
  createdAt: createdAt(),
});

export const mfaRecoveryCodes = pgTable(
  "mfa_recovery_codes",
  {
    id: text("id").primaryKey(),
    userId: ownedBy("user_id", () => users.id),
    codeHash: text("code_hash").notNull(),
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("mfa_recovery_codes_user_idx").on(t.userId)],
);

export const auditLog = pgTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    // `app` in entries written before apps were named `oauth_app`.
    actorType: text("actor_type", { enum: ["user", "api_token", "oauth_app", "automation", "system", "anonymous", "app"] }).notNull(),
    actorId: text("actor_id"),
    actorName: text("actor_name"),
    // The credential and the person behind an API token's or an app's action.
    actorVia: jsonb("actor_via").$type<{ token_id?: string; app_id?: string; user_id: string; user_name: string }>(),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_account_created_idx").on(t.accountId, t.createdAt, t.id),
    index("audit_log_account_action_created_idx").on(t.accountId, t.action, t.createdAt, t.id),
    index("audit_log_account_actor_created_idx").on(t.accountId, t.actorId, t.createdAt, t.id),
  ],
);

export type OauthApp = typeof oauthApps.$inferSelect;
export type OauthGrant = typeof oauthGrants.$inferSelect;
export type Invitation = typeof invitations.$inferSelect;
export type AuditLogRow = typeof auditLog.$inferSelect;
