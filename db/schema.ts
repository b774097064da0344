import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

// Timestamps are written by the application with millisecond precision so that a
// keyset cursor built from a JS Date matches the stored value exactly.
const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });
const createdAt = () =>
  ts("created_at")
    .notNull()
    .$defaultFn(() => new Date());
const updatedAt = () =>
  ts("updated_at")
    .notNull()
    .$defaultFn(() => new Date());

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const accounts = pgTable("accounts", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: createdAt(),
});

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ["admin", "agent"] }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastSeenAt: ts("last_seen_at"),
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
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["api", "session"] }).notNull(),
    name: text("name").notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    expiresAt: ts("expires_at").notNull(),
    createdAt: createdAt(),
    lastUsedAt: ts("last_used_at"),
    // A refreshed session stays valid until revoked_at (a short grace); replaced_by names its successor.
    revokedAt: ts("revoked_at"),
    replacedBy: text("replaced_by"),
  },
  (t) => [
    index("api_tokens_account_created_idx").on(t.accountId, t.createdAt, t.id),
    index("api_tokens_user_idx").on(t.userId),
  ],
);

export const contacts = pgTable(
  "contacts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    phone: text("phone").notNull(),
    name: text("name"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("contacts_account_phone_idx").on(t.accountId, t.phone)],
);

export const conversations = pgTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["open", "assigned", "closed"] }).notNull(),
    assignedTo: text("assigned_to").references(() => users.id, { onDelete: "set null" }),
    assignedAt: ts("assigned_at"),
    lastMessageAt: ts("last_message_at"),
    lastMessagePreview: text("last_message_preview"),
    unreadCount: integer("unread_count").notNull().default(0),
    lastAutoReplyAt: ts("last_auto_reply_at"),
    // The newest inbound message the automatic answers have handled: a retried job answers nothing twice.
    autoReplyHandledMessageId: text("auto_reply_handled_message_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    closedAt: ts("closed_at"),
  },
  (t) => [
    index("conversations_account_created_idx").on(t.accountId, t.createdAt, t.id),
    index("conversations_account_status_created_idx").on(t.accountId, t.status, t.createdAt, t.id),
    index("conversations_account_assignee_created_idx").on(
      t.accountId,
      t.assignedTo,
      t.createdAt,
      t.id,
    ),
    // The inbox orders by latest activity; a conversation without messages counts from its creation.
    index("conversations_account_activity_idx").on(t.accountId, sql`coalesce(${t.lastMessageAt}, ${t.createdAt})`, t.id),
    index("conversations_contact_idx").on(t.accountId, t.contactId, t.status),
    // Reports: conversations closed in a date range.
    index("conversations_account_closed_idx").on(t.accountId, t.closedAt),
  ],
);

export const media = pgTable(
  "media",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    mimeType: text("mime_type").notNull(),
    filename: text("filename"),
    caption: text("caption"),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    bytes: bytea("bytes").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("media_account_idx").on(t.accountId)],
);

export const messages = pgTable(
  "messages",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    direction: text("direction", { enum: ["inbound", "outbound"] }).notNull(),
    fromNumber: text("from_number").notNull(),
    toNumber: text("to_number").notNull(),
    type: text("type", { enum: ["text", "image", "document", "audio", "video"] }).notNull(),
    text: text("text"),
    mediaId: text("media_id").references(() => media.id, { onDelete: "set null" }),
    status: text("status", {
      enum: ["queued", "sent", "delivered", "read", "failed", "received"],
    }).notNull(),
    senderType: text("sender_type", { enum: ["user", "contact", "automation"] }).notNull(),
    senderUserId: text("sender_user_id"),
    error: jsonb("error").$type<{ code: string; message: string } | null>(),
    networkMessageId: text("network_message_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: ts("deleted_at"),
  },
  (t) => [
    index("messages_conversation_created_idx").on(t.conversationId, t.createdAt, t.id),
    index("messages_account_created_idx").on(t.accountId, t.createdAt, t.id),
    // Reports: a conversation's first inbound message and the first reply after it.
    index("messages_conversation_direction_created_idx").on(t.conversationId, t.direction, t.createdAt, t.id),
    uniqueIndex("messages_account_network_id_idx")
      .on(t.accountId, t.networkMessageId)
      .where(sql`${t.networkMessageId} is not null`),
  ],
);

export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("events_account_id_idx").on(t.accountId, t.id),
    index("events_account_created_idx").on(t.accountId, t.createdAt, t.id),
    // Who is online: the latest presence event of one user is one index lookup.
    index("events_presence_idx")
      .on(t.accountId, sql`(${t.data}->'user'->>'id')`, t.id)
      .where(sql`${t.type} in ('user.online', 'user.offline')`),
  ],
);

export const webhooks = pgTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: jsonb("events").$type<string[]>().notNull(),
    secret: text("secret").notNull(),
    status: text("status", {
      enum: ["pending", "active", "verification_failed", "disabled"],
    }).notNull(),
    statusReason: text("status_reason"),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhooks_account_created_idx").on(t.accountId, t.createdAt, t.id)],
);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    // The exact body sent on every attempt, frozen when the event is recorded.
    payload: text("payload").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    completedAt: ts("completed_at"),
  },
  (t) => [
    index("webhook_deliveries_webhook_created_idx").on(t.webhookId, t.createdAt, t.id),
    uniqueIndex("webhook_deliveries_webhook_event_idx").on(t.webhookId, t.eventId),
  ],
);

export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    attempt: integer("attempt").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    durationMs: integer("duration_ms"),
    error: text("error"),
    attemptedAt: ts("attempted_at")
      .notNull()
      .$defaultFn(() => new Date()),
    nextAttemptAt: ts("next_attempt_at"),
  },
  (t) => [
    uniqueIndex("webhook_attempts_delivery_attempt_idx").on(t.deliveryId, t.attempt),
    index("webhook_attempts_webhook_attempted_idx").on(t.webhookId, t.attemptedAt, t.id),
    index("webhook_attempts_webhook_status_idx").on(t.webhookId, t.status, t.attemptedAt, t.id),
  ],
);

export type OpeningInterval = { open: string; close: string };
export type WeeklyHours = Partial<
  Record<"mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun", OpeningInterval[]>
>;
export type AutoReplySettings = {
  outside_hours: { enabled: boolean; message: string };
  hours_question: { enabled: boolean };
};

export const businessProfiles = pgTable("business_profiles", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  hours: jsonb("hours").$type<{ timezone: string; weekly: WeeklyHours } | null>(),
  autoReply: jsonb("auto_reply").$type<AutoReplySettings | null>(),
  updatedAt: updatedAt(),
});

export const documents = pgTable(
  "documents",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    size: integer("size").notNull(),
    pages: integer("pages").notNull(),
    text: text("text").notNull(),
    bytes: bytea("bytes").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("documents_account_created_idx").on(t.accountId, t.createdAt, t.id)],
);

export const numberIntegrations = pgTable("number_integrations", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  provider: text("provider", { enum: ["sandbox", "cloud"] }).notNull(),
  phoneNumber: text("phone_number"),
  phoneNumberId: text("phone_number_id"),
  businessAccountId: text("business_account_id"),
  // Write-only secrets, encrypted at rest with a key derived from AUTH_SECRET.
  accessTokenEnc: text("access_token_enc"),
  appSecretEnc: text("app_secret_enc"),
  verifyToken: text("verify_token"),
  apiBaseUrl: text("api_base_url"),
  coexistence: boolean("coexistence").notNull().default(false),
  status: text("status", { enum: ["sandbox", "pending", "connected", "error"] }).notNull(),
  statusReason: text("status_reason"),
  updatedAt: updatedAt(),
}, (t) => [
  // The network's webhook names the number by phone_number_id: it must lead to one account.
  uniqueIndex("number_integrations_cloud_phone_number_id_idx")
    .on(t.phoneNumberId)
    .where(sql`${t.provider} = 'cloud'`),
]);

export const plants = pgTable(
  "plants",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tag: text("tag"),
    createdAt: createdAt(),
  },
  (t) => [index("plants_account_id_idx").on(t.accountId, t.id)],
);

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    route: text("route").notNull(),
    requestHash: text("request_hash").notNull(),
    // Who made the first request: a replay carrying a secret is answered to that user only.
    userId: text("user_id"),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.route, t.key] }),
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);

export const jobs = pgTable(
  "jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    accountId: text("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: ["pending", "running", "done", "failed"] }).notNull(),
    runAt: ts("run_at")
      .notNull()
      .$defaultFn(() => new Date()),
    attempts: integer("attempts").notNull().default(0),
    // A claimed row whose lease ran out (the process died) is due again.
    lockedUntil: ts("locked_until"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("jobs_due_idx")
      .on(t.runAt, t.id)
      .where(sql`${t.status} in ('pending', 'running')`),
  ],
);

export type Account = typeof accounts.$inferSelect;
export type User = typeof users.$inferSelect;
export type ApiToken = typeof apiTokens.$inferSelect;
export type Contact = typeof contacts.$inferSelect;
export type Conversation = typeof conversations.$inferSelect;
export type Message = typeof messages.$inferSelect;
export type Media = typeof media.$inferSelect;
export type EventRow = typeof events.$inferSelect;
export type Webhook = typeof webhooks.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type WebhookAttempt = typeof webhookAttempts.$inferSelect;
export type BusinessProfile = typeof businessProfiles.$inferSelect;
export type DocumentRow = typeof documents.$inferSelect;
export type NumberIntegration = typeof numberIntegrations.$inferSelect;
export type Plant = typeof plants.$inferSelect;
export type Job = typeof jobs.$inferSelect;
