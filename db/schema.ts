import { type AnyColumn, sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
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

/** A label as a conversation carries it. */
export type LabelRef = { id: string; name: string; color: string };

/** The words contact search matches (the number is matched on its own, by digits). */
/** The name order's key: named contacts first by their unaccented lower-case name, then the unnamed by number (byte order, the same on every database). */
export const contactNameKey = (t: { name: AnyColumn; phone: AnyColumn; username: AnyColumn; networkUserId: AnyColumn }) =>
  sql`(coalesce('0' || chorus_search_text(${t.name}), '1' || coalesce(${t.phone}, ${t.username}, ${t.networkUserId})) COLLATE "C")`;
// A username's periods, underscores and dashes separate its words (`@fern.fan` is found by `fan`).
export const contactSearchDocument = (t: { name: AnyColumn; email: AnyColumn; username: AnyColumn }) =>
  sql`(coalesce(${t.name}, '') || ' ' || coalesce(${t.email}, '') || ' ' || translate(coalesce(${t.username}, ''), '._-', '   '))`;

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
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
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

export const contacts = pgTable(
  "contacts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    // A customer who adopted a username may come with no phone: then the BSUID is their address.
    phone: text("phone"),
    // The network's business-scoped user id (BSUID): `CC.` + up to 128 alphanumerics, or `CC.ENT.…`.
    networkUserId: text("network_user_id"),
    // The customer's WhatsApp username as the network last reported it (display only, it can change).
    username: text("username"),
    name: text("name"),
    email: text("email"),
    notes: text("notes"),
    attributes: jsonb("attributes").$type<Record<string, string>>().notNull().default({}),
    // A blocked contact's messages are stored but reopen nothing, notify nobody and get no automatic answer.
    blocked: boolean("blocked").notNull().default(false),
    // Set when a person names the contact: the network's profile name no longer overwrites it.
    nameEditedAt: ts("name_edited_at"),
    // Consent to marketing (campaigns): true agreed, false opted out, null never asked.
    marketingOptIn: boolean("marketing_opt_in"),
    // The labels set on the contact itself (campaign audiences also match its conversations' labels).
    labels: jsonb("labels").$type<LabelRef[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("contacts_account_phone_idx").on(t.accountId, t.phone),
    uniqueIndex("contacts_account_user_id_idx").on(t.accountId, t.networkUserId),
    check("contacts_identity_check", sql`${t.phone} is not null or ${t.networkUserId} is not null`),
    index("contacts_account_created_idx").on(t.accountId, t.createdAt, t.id),
    // Search: the words of name and email, unaccented and lower-cased (chorus_search_vector: migration 0008),
    // and any run of digits of the number (trigrams).
    index("contacts_search_idx").using("gin", sql`chorus_search_vector(${contactSearchDocument(t)})`),
    index("contacts_phone_search_idx").using("gin", sql`${t.phone} gin_trgm_ops`),
    // The list by name: named contacts A to Z (unaccented, lower-cased), then the unnamed by number.
    index("contacts_account_name_idx").on(t.accountId, contactNameKey(t), t.id),
    index("contacts_labels_idx").using("gin", sql`${t.labels} jsonb_path_ops`),
  ],
);

/**
 * When a contact last wrote or was written to (`sort_at`: that, or its creation before any
 * message), for the contact list's default order. Kept by triggers (migration 0020): a new contact
 * gets its row, a conversation's `last_message_at` moving forward moves it, a deleted conversation
 * recomputes it. A row of its own, so a reply never has to lock the contact.
 */
export const contactActivity = pgTable(
  "contact_activity",
  {
    contactId: text("contact_id")
      .primaryKey()
      .references(() => contacts.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    lastMessageAt: ts("last_message_at"),
    sortAt: ts("sort_at").notNull(),
  },
  (t) => [index("contact_activity_account_sort_idx").on(t.accountId, t.sortAt, t.contactId)],
);

/** Urgent first, no priority last: the order of `?sort=priority`. */
export const priorityRank = (priority: AnyColumn) =>
  sql<number>`(case ${priority} when 'urgent' then 0 when 'high' then 1 when 'medium' then 2 when 'low' then 3 else 4 end)`;

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
    status: text("status", { enum: ["open", "assigned", "closed", "snoozed"] }).notNull(),
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
    // Reports: when the conversation last became active (creation, or its latest reopening).
    openedAt: ts("opened_at"),
    // Satisfaction survey: when it was last sent, and the customer's first answer (never overwritten).
    csatAskedAt: ts("csat_asked_at"),
    csatScore: integer("csat_score"),
    csatAt: ts("csat_at"),
    // The customer's last inbound network timestamp + 24 h: free-form sends are allowed until then.
    serviceWindowExpiresAt: ts("service_window_expires_at"),
    // When the typing indicator last went to the customer (sent at most once per 20 s).
    typingIndicatorSentAt: ts("typing_indicator_sent_at"),
    // While `snoozed`: when it wakes (back to open or assigned).
    snoozedUntil: ts("snoozed_until"),
    // The labels as the conversation resource shows them; the labels table is the list to pick from.
    labels: jsonb("labels").$type<LabelRef[]>().notNull().default([]),
    teamId: text("team_id"),
    priority: text("priority", { enum: ["urgent", "high", "medium", "low"] }),
    // The SLA clock that runs now: which policy, which target (kind), when it started, when it
    // warns (80 %) and when it is due; status ok → warning → breached, or met when answered in time.
    slaPolicyId: text("sla_policy_id"),
    slaKind: text("sla_kind", { enum: ["first_response", "next_response", "resolution"] }),
    slaStartedAt: ts("sla_started_at"),
    slaDueAt: ts("sla_due_at"),
    slaWarnAt: ts("sla_warn_at"),
    slaStatus: text("sla_status", { enum: ["ok", "warning", "breached", "met"] }),
    // Since when the customer waits for a person's answer (null once a person answered).
    awaitingReplySince: ts("awaiting_reply_since"),
  },
  (t) => [
    index("conversations_account_team_created_idx").on(t.accountId, t.teamId, t.createdAt, t.id),
    index("conversations_account_priority_created_idx").on(t.accountId, t.priority, t.createdAt, t.id),
    index("conversations_account_priority_rank_idx").on(t.accountId, priorityRank(t.priority), sql`coalesce(${t.lastMessageAt}, ${t.createdAt})`, t.id),
    index("conversations_sla_due_idx").on(t.slaDueAt).where(sql`${t.slaStatus} in ('ok', 'warning')`),
    index("conversations_sla_warn_idx").on(t.slaWarnAt).where(sql`${t.slaStatus} = 'ok'`),
    index("conversations_account_waiting_idx").on(t.accountId, t.createdAt, t.id).where(sql`${t.status} = 'open' and ${t.assignedTo} is null`),
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
    // Reports: satisfaction answers given in a date range.
    index("conversations_account_csat_idx").on(t.accountId, t.csatAt).where(sql`${t.csatScore} is not null`),
    // ?label=lbl_…: containment on the labels array.
    index("conversations_labels_idx").using("gin", sql`${t.labels} jsonb_path_ops`),
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

/** Every kind of message the network carries; `unsupported` keeps what Chorus cannot show. */
export const messageKinds = [
  "text",
  "image",
  "document",
  "audio",
  "video",
  "sticker",
  "location",
  "contacts",
  "reaction",
  "interactive",
  "button",
  "template",
  "unsupported",
] as const;

export type MessageReaction = { emoji: string; from: string };
/** The network's `pricing` of a status, and the recipient's country calling code it was priced for. */
export type MessagePricing = { category: string; billable: boolean; pricing_model?: string; country_code?: string };
export type MessageContent = Record<string, unknown>;
/** One earlier version of a message: its words until `until` (an edit or a deletion by the customer). */
export type MessageRevision = { text?: string; caption?: string; until: string; change: "edited" | "deleted"; network_message_id?: string };

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
    type: text("type", { enum: messageKinds }).notNull(),
    text: text("text"),
    /** The customer's language, detected from an inbound text or caption; null when unsure. */
    language: text("language", { enum: ["en", "es", "pt"] }),
    mediaId: text("media_id").references(() => media.id, { onDelete: "set null" }),
    status: text("status", {
      enum: ["queued", "sent", "delivered", "read", "failed", "received"],
    }).notNull(),
    senderType: text("sender_type", { enum: ["user", "contact", "automation"] }).notNull(),
    senderUserId: text("sender_user_id"),
    error: jsonb("error").$type<{ code: string; message: string } | null>(),
    networkMessageId: text("network_message_id"),
    // What a kind other than text and media carries (location, contacts, interactive, button,
    // template, reaction, unsupported), keyed by the field name the API shows it under.
    content: jsonb("content").$type<MessageContent | null>(),
    // Reactions on this message, one per sender; an empty emoji from the network removes it.
    reactions: jsonb("reactions").$type<MessageReaction[] | null>(),
    // The message this one replies to (quoted).
    contextMessageId: text("context_message_id"),
    // What the network reported it charges for this outbound message (from its statuses).
    pricing: jsonb("pricing").$type<MessagePricing | null>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: ts("deleted_at"),
    // The customer edited it (latest edit); earlier versions are kept in history for admins.
    editedAt: ts("edited_at"),
    history: jsonb("history").$type<MessageRevision[] | null>(),
  },
  (t) => [
    index("messages_conversation_created_idx").on(t.conversationId, t.createdAt, t.id),
    index("messages_account_created_idx").on(t.accountId, t.createdAt, t.id),
    // Reports: a conversation's first inbound message and the first reply after it.
    index("messages_conversation_direction_created_idx").on(t.conversationId, t.direction, t.createdAt, t.id),
    uniqueIndex("messages_account_network_id_idx")
      .on(t.accountId, t.networkMessageId)
      .where(sql`${t.networkMessageId} is not null`),
    // Search: the words of the text, unaccented and lower-cased (chorus_search_vector: migration 0008).
    index("messages_text_search_idx").using("gin", sql`chorus_search_vector(${t.text})`),
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
    // The webhook's account, copied for filtering. No foreign key of its own: the row goes with
    // its webhook (which goes with its account), and a key on the account would check and lock
    // the account's row on every delivery written.
    accountId: text("account_id").notNull(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    // The exact body sent on every attempt, frozen when the event is recorded.
    payload: text("payload").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    // The delivery row is the local runner's job: due while pending with next_attempt_at
    // reached and no live claim. A claim is a lease (locked_until) counted by `claims`; a
    // lease that ran out while running means its process died.
    nextAttemptAt: ts("next_attempt_at"),
    lockedUntil: ts("locked_until"),
    claims: integer("claims").notNull().default(0),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    completedAt: ts("completed_at"),
  },
  (t) => [
    // Also the index that deleting a webhook cascades through (its deliveries by webhook_id).
    uniqueIndex("webhook_deliveries_webhook_event_idx").on(t.webhookId, t.eventId),
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.status} = 'pending'`),
  ],
);

export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    // The delivery's account and webhook, copied for filtering (the log, stats). Only the
    // delivery is a foreign key: an attempt goes with its delivery (which goes with its webhook
    // and account), and keys on the others would check and lock those rows on every attempt.
    accountId: text("account_id").notNull(),
    webhookId: text("webhook_id").notNull(),
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
  outside_hours: { enabled: boolean; message: string; translations?: Partial<Record<"en" | "es" | "pt", string>> };
  hours_question: { enabled: boolean };
};

export const businessProfiles = pgTable("business_profiles", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  /** The business's own language: automatic answers fall back to it. */
  language: text("language", { enum: ["en", "es", "pt"] }).notNull().default("en"),
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
  // The number's health as the network last reported it (phone_number_quality_update).
  qualityRating: text("quality_rating"),
  messagingLimitTier: text("messaging_limit_tier"),
  healthUpdatedAt: ts("health_updated_at"),
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

// ---------------------------------------------------------------------------------------------
// Smart features: passages of the business's own knowledge (the profile description and the
// documents' text), searched with PostgreSQL full-text search in the customer's language.

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const knowledgePassages = pgTable(
  "knowledge_passages",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    sourceType: text("source_type", { enum: ["description", "document"] }).notNull(),
    documentId: text("document_id").references(() => documents.id, { onDelete: "cascade" }),
    page: integer("page"),
    position: integer("position").notNull(),
    text: text("text").notNull(),
    // How the text was cut (lib/profile/knowledge.ts): older cuts are cut again on first use.
    cut: integer("cut").notNull().default(1),
    // One vector per language (accent-free text), so a query in the customer's language uses its stemmer.
    searchEn: tsvector("search_en").notNull(),
    searchEs: tsvector("search_es").notNull(),
    searchPt: tsvector("search_pt").notNull(),
  },
  (t) => [
    index("knowledge_passages_account_idx").on(t.accountId, t.sourceType, t.documentId),
    index("knowledge_passages_search_en_idx").using("gin", t.searchEn),
    index("knowledge_passages_search_es_idx").using("gin", t.searchEs),
    index("knowledge_passages_search_pt_idx").using("gin", t.searchPt),
  ],
);

// ---------------------------------------------------------------------------------------------
// Integrations and team administration: OAuth apps, invitations, password resets, two-factor
// sign-in, audit log. Every secret handed out (client secret, code, refresh token, invitation and
// reset links) is stored as its SHA-256 only; TOTP secrets are sealed with the secrets-at-rest key.

export const oauthApps = pgTable(
  "oauth_apps",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
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
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    appId: text("app_id")
      .notNull()
      .references(() => oauthApps.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
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
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    grantId: text("grant_id")
      .notNull()
      .references(() => oauthGrants.id, { onDelete: "cascade" }),
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
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    grantId: text("grant_id")
      .notNull()
      .references(() => oauthGrants.id, { onDelete: "cascade" }),
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
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
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
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
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
  accountId: text("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
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
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
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
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
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

// ---------------------------------------------------------------------------------------------
// Team inbox: internal notes and mentions, notifications, the activity trail, canned replies
// and the inbox settings of an account.

export const conversationNotes = pgTable(
  "conversation_notes",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    // Users are soft-deleted, so a note keeps its author.
    authorId: text("author_id")
      .notNull()
      .references(() => users.id),
    text: text("text").notNull(),
    mentions: jsonb("mentions").$type<string[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("conversation_notes_conversation_created_idx").on(t.conversationId, t.createdAt, t.id),
    // Search: the note's words, unaccented and lower-cased (chorus_search_vector: migration 0008).
    index("conversation_notes_text_search_idx").using("gin", sql`chorus_search_vector(${t.text})`),
  ],
);

export const notifications = pgTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // mention: a teammate mentioned the user in a note; number_health: the number's quality or limit dropped (admins);
    // sla_warning / sla_breached: a conversation's SLA target is near or missed (its assignee, else the admins).
    type: text("type", { enum: ["mention", "number_health", "sla_warning", "sla_breached"] }).notNull(),
    conversationId: text("conversation_id").references(() => conversations.id, { onDelete: "cascade" }),
    /** What happened, for notifications that are not about a note. */
    message: text("message"),
    noteId: text("note_id").references(() => conversationNotes.id, { onDelete: "cascade" }),
    actorId: text("actor_id").references(() => users.id),
    readAt: ts("read_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("notifications_user_created_idx").on(t.userId, t.createdAt, t.id),
    index("notifications_user_unread_idx").on(t.userId, t.createdAt, t.id).where(sql`${t.readAt} is null`),
    // The inbox's Mentions filter: conversations where one user is mentioned.
    index("notifications_user_conversation_idx").on(t.userId, t.conversationId),
  ],
);

export const conversationActivities = pgTable(
  "conversation_activities",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    actorType: text("actor_type", { enum: ["user", "automation", "contact"] }).notNull(),
    actorId: text("actor_id"),
    // The name as it was when it happened: the trail reads the same after a rename or deletion.
    actorName: text("actor_name"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("conversation_activities_conversation_created_idx").on(t.conversationId, t.createdAt, t.id)],
);

export const cannedReplies = pgTable(
  "canned_replies",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    shortcut: text("shortcut").notNull(),
    text: text("text").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("canned_replies_account_shortcut_idx").on(t.accountId, t.shortcut),
    index("canned_replies_account_created_idx").on(t.accountId, t.createdAt, t.id),
  ],
);

export const inboxSettings = pgTable("inbox_settings", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  autoAssignOnReply: boolean("auto_assign_on_reply").notNull().default(true),
  sendReadReceipts: boolean("send_read_receipts").notNull().default(true),
  sendTypingIndicator: boolean("send_typing_indicator").notNull().default(true),
  updatedAt: updatedAt(),
});

export type ConversationNote = typeof conversationNotes.$inferSelect;
export type Notification = typeof notifications.$inferSelect;
export type ConversationActivity = typeof conversationActivities.$inferSelect;
export type CannedReply = typeof cannedReplies.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Team inbox: labels (conversation labels live on conversations.labels; snooze and contact
// fields are columns of conversations and contacts above)

export const labels = pgTable(
  "labels",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    color: text("color").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("labels_account_name_idx").on(t.accountId, sql`lower(${t.name})`),
    index("labels_account_created_idx").on(t.accountId, t.createdAt, t.id),
  ],
);

export type Label = typeof labels.$inferSelect;

// Network fidelity: message templates and statuses that arrived before their send was recorded.

export const messageTemplates = pgTable(
  "message_templates",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    language: text("language").notNull(),
    category: text("category", { enum: ["MARKETING", "UTILITY", "AUTHENTICATION"] }).notNull(),
    components: jsonb("components").$type<TemplateComponents>().notNull(),
    status: text("status", { enum: ["PENDING", "APPROVED", "REJECTED"] }).notNull(),
    rejectedReason: text("rejected_reason"),
    networkTemplateId: text("network_template_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("message_templates_account_name_language_idx").on(t.accountId, t.name, t.language),
    index("message_templates_account_created_idx").on(t.accountId, t.createdAt, t.id),
  ],
);

export type TemplateHeaderFormat = "TEXT" | "IMAGE" | "VIDEO" | "DOCUMENT" | "LOCATION";
export type TemplateButton =
  | { type: "QUICK_REPLY"; text: string }
  | { type: "URL"; text: string; url: string; example?: string }
  | { type: "PHONE_NUMBER"; text: string; phone_number: string }
  | { type: "COPY_CODE"; example: string };

export type TemplateComponents = {
  /**
   * TEXT (the default when `format` is absent), a media file kept in `media` (its bytes in the
   * media table, `handle` the network's upload handle) or a LOCATION sent with each message.
   */
  header?: {
    format?: TemplateHeaderFormat;
    text?: string;
    media?: { id: string; mime_type: string; filename?: string; size: number; handle?: string };
    location?: { latitude: number; longitude: number; name?: string; address?: string };
  };
  body: { text: string; examples?: string[] };
  footer?: { text: string };
  buttons?: TemplateButton[];
};

export const earlyStatuses = pgTable(
  "early_statuses",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    networkMessageId: text("network_message_id").notNull(),
    status: text("status", { enum: ["sent", "delivered", "read", "failed"] }).notNull(),
    error: jsonb("error").$type<{ code: string; message: string } | null>(),
    createdAt: createdAt(),
  },
  (t) => [index("early_statuses_account_network_id_idx").on(t.accountId, t.networkMessageId)],
);

export type MessageTemplate = typeof messageTemplates.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Reports: the satisfaction survey's settings (one row per account; absent = disabled).
export const csatSettings = pgTable("csat_settings", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  enabled: boolean("enabled").notNull().default(false),
  question: text("question").notNull(),
  updatedAt: updatedAt(),
});
export type CsatSettings = typeof csatSettings.$inferSelect;

// Reports: what happened, recorded when it happened (a close stays counted for the range and
// the agent it belonged to after the conversation is reopened or reassigned). No foreign key to
// the conversation: a deleted conversation's work still happened.
export const reportingEvents = pgTable(
  "reporting_events",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id").notNull(),
    // `conversation_resolved`: value_s is the resolution time, user_id the assignee at the close.
    name: text("name", { enum: ["conversation_resolved"] }).notNull(),
    userId: text("user_id"),
    // Who did it (the person who closed), when a person did.
    actorId: text("actor_id"),
    valueS: doublePrecision("value_s").notNull(),
    startedAt: ts("started_at").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    index("reporting_events_account_name_created_idx").on(t.accountId, t.name, t.createdAt),
    index("reporting_events_conversation_idx").on(t.conversationId, t.createdAt),
  ],
);

// What reports read instead of the messages, kept by triggers on messages in the transaction of
// each change (migration 0037): an account's messages per 15-minute slot, each agent's messages
// per UTC day, and each conversation's first inbound message with the first reply by a person
// that reached the network.
export const reportMessageSlots = pgTable(
  "report_message_slots",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    slot: ts("slot").notNull(),
    received: integer("received").notNull().default(0),
    sent: integer("sent").notNull().default(0),
    sentByAgents: integer("sent_by_agents").notNull().default(0),
    automated: integer("automated").notNull().default(0),
    failed: integer("failed").notNull().default(0),
  },
  (t) => [primaryKey({ name: "report_message_slots_pk", columns: [t.accountId, t.slot] })],
);

export const reportAgentDays = pgTable(
  "report_agent_days",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    day: ts("day").notNull(),
    userId: text("user_id").notNull(),
    sent: integer("sent").notNull().default(0),
    // Sent and not failed.
    sentOk: integer("sent_ok").notNull().default(0),
  },
  (t) => [primaryKey({ name: "report_agent_days_pk", columns: [t.accountId, t.day, t.userId] })],
);

export const reportFirstResponses = pgTable(
  "report_first_responses",
  {
    conversationId: text("conversation_id")
      .primaryKey()
      .references(() => conversations.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    inboundAt: ts("inbound_at").notNull(),
    inboundId: text("inbound_id").notNull(),
    replyAt: ts("reply_at"),
    replyId: text("reply_id"),
    replyUserId: text("reply_user_id"),
  },
  (t) => [index("report_first_responses_account_inbound_idx").on(t.accountId, t.inboundAt)],
);

// SLA targets met and breached per UTC day, policy and person ('' for nobody), kept by a trigger
// on sla_outcomes (migration 0037).
export const reportSlaDays = pgTable(
  "report_sla_days",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    day: ts("day").notNull(),
    slaPolicyId: text("sla_policy_id").notNull(),
    userId: text("user_id").notNull().default(""),
    met: integer("met").notNull().default(0),
    breached: integer("breached").notNull().default(0),
  },
  (t) => [primaryKey({ name: "report_sla_days_pk", columns: [t.accountId, t.day, t.slaPolicyId, t.userId] })],
);

// Per-day histograms of resolution and first response times (fixed log-scale buckets of
// seconds, -1 an unanswered first response), kept by triggers on reporting_events,
// report_implicit_closes and report_first_responses (migration 0041).
export const reportDurationDays = pgTable(
  "report_duration_days",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["resolution", "first_response"] }).notNull(),
    day: ts("day").notNull(),
    userId: text("user_id").notNull().default(""),
    bucket: smallint("bucket").notNull(),
    n: integer("n").notNull().default(0),
    totalS: doublePrecision("total_s").notNull().default(0),
  },
  (t) => [primaryKey({ name: "report_duration_days_pk", columns: [t.accountId, t.kind, t.day, t.userId, t.bucket] })],
);

// Closed conversations whose close was never recorded as a resolution, in the shape of
// reporting_events, kept by triggers on conversations and reporting_events (migration 0041).
export const reportImplicitCloses = pgTable(
  "report_implicit_closes",
  {
    conversationId: text("conversation_id")
      .primaryKey()
      .references(() => conversations.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    name: text("name", { enum: ["conversation_resolved"] }).notNull().default("conversation_resolved"),
    userId: text("user_id"),
    valueS: doublePrecision("value_s").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("report_implicit_closes_account_created_idx").on(t.accountId, t.createdAt)],
);

// Each close that follows an earlier close of the same conversation, by anyone ('') or by the
// same person, with the earlier one's time (migration 0041).
export const reportCloseRepeats = pgTable(
  "report_close_repeats",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id").notNull(),
    userId: text("user_id").notNull().default(""),
    closedAt: ts("closed_at").notNull(),
    previousAt: ts("previous_at").notNull(),
  },
  (t) => [
    index("report_close_repeats_account_closed_idx").on(t.accountId, t.closedAt),
    index("report_close_repeats_conversation_idx").on(t.conversationId),
  ],
);

// Each `conversation.assigned` event as a row, with when the same person was last given the same
// conversation before, and the count per UTC day and person; kept by triggers on events
// (migration 0041).
export const reportAssignments = pgTable(
  "report_assignments",
  {
    eventId: text("event_id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id").notNull(),
    userId: text("user_id").notNull(),
    createdAt: ts("created_at").notNull(),
    previousAt: ts("previous_at"),
  },
  (t) => [
    index("report_assignments_account_created_idx").on(t.accountId, t.createdAt),
    index("report_assignments_conversation_idx").on(t.conversationId, t.userId, t.createdAt),
    index("report_assignments_repeats_idx")
      .on(t.accountId, t.createdAt)
      .where(sql`${t.previousAt} is not null`),
  ],
);

export const reportAssignmentDays = pgTable(
  "report_assignment_days",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    day: ts("day").notNull(),
    userId: text("user_id").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ name: "report_assignment_days_pk", columns: [t.accountId, t.day, t.userId] })],
);

// Conversations created per UTC day, kept by triggers on conversations (migration 0041).
export const reportConversationDays = pgTable(
  "report_conversation_days",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    day: ts("day").notNull(),
    created: integer("created").notNull().default(0),
  },
  (t) => [primaryKey({ name: "report_conversation_days_pk", columns: [t.accountId, t.day] })],
);

// Each satisfaction answer with the agent it belongs to, and the count per UTC day, agent ('' for
// nobody) and score, kept by triggers on conversations and reporting_events (migration 0041).
export const reportRatings = pgTable(
  "report_ratings",
  {
    conversationId: text("conversation_id")
      .primaryKey()
      .references(() => conversations.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    ratedAt: ts("rated_at").notNull(),
    score: integer("score").notNull(),
    userId: text("user_id"),
  },
  (t) => [index("report_ratings_account_rated_idx").on(t.accountId, t.ratedAt)],
);

export const reportRatingDays = pgTable(
  "report_rating_days",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    day: ts("day").notNull(),
    userId: text("user_id").notNull().default(""),
    score: integer("score").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ name: "report_rating_days_pk", columns: [t.accountId, t.day, t.userId, t.score] })],
);

// ---------------------------------------------------------------------------------------------
// Answers that help: passages an agent marked "not helpful", and the answer assistant's settings.

export const suggestionDismissals = pgTable(
  "suggestion_dismissals",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    // sha256 of the passage text: the choice survives the passages being indexed again.
    textHash: text("text_hash").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.textHash] })],
);

export const assistantSettings = pgTable("assistant_settings", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  answerOutsideHours: boolean("answer_outside_hours").notNull().default(false),
  minScore: real("min_score").notNull().default(0.1),
  updatedAt: updatedAt(),
});

// Cost before sending: each account's price table per country calling code and category.
export type PriceRate = { country_code: string; category: "marketing" | "utility" | "authentication" | "service"; price: number };
export const pricingTables = pgTable("pricing_tables", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  currency: text("currency").notNull(),
  rates: jsonb("rates").$type<PriceRate[]>().notNull(),
  updatedAt: ts("updated_at").notNull(),
});

// ---------------------------------------------------------------------------------------------
// Web Push: the devices a user is notified on, and what they want pushed

export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The push service's URL for this browser; once per user (a registration never touches another account's rows). */
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    lastPushedAt: ts("last_pushed_at"),
  },
  (t) => [uniqueIndex("push_subscriptions_user_endpoint_idx").on(t.accountId, t.userId, t.endpoint), index("push_subscriptions_account_user_idx").on(t.accountId, t.userId)],
);

export const notificationPreferences = pgTable("notification_preferences", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  accountId: text("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  newMessages: boolean("new_messages").notNull().default(true),
  mentions: boolean("mentions").notNull().default(true),
  assignments: boolean("assignments").notNull().default(true),
  slaWarnings: boolean("sla_warnings").notNull().default(true),
  /** "HH:MM" in `timeZone`; both set: no pushes from start until end (may cross midnight). */
  quietStart: text("quiet_start"),
  quietEnd: text("quiet_end"),
  timeZone: text("time_zone").notNull().default("UTC"),
  updatedAt: updatedAt(),
});

export type PushSubscription = typeof pushSubscriptions.$inferSelect;
export type NotificationPreferences = typeof notificationPreferences.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Campaigns: approved templates to a consenting audience, paced and resumable.

export const campaignSettings = pgTable("campaign_settings", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  messagesPerSecond: integer("messages_per_second").notNull().default(80),
  requireOptIn: boolean("require_opt_in").notNull().default(true),
  optOutKeywords: jsonb("opt_out_keywords").$type<string[]>().notNull(),
  updatedAt: ts("updated_at").notNull(),
});

/** Where a template variable's value comes from, per recipient. */
export type CampaignVariable = { source: string; value?: string };
export type CampaignTemplate = { name: string; language: string; variables: CampaignVariable[] };
export type CampaignAudience = { label_ids?: string[]; attributes?: Record<string, string>; contact_ids?: string[] };
export type CampaignCost = { amount: number; currency: string; priced: number; unpriced: number };

export const campaigns = pgTable(
  "campaigns",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    template: jsonb("template").$type<CampaignTemplate>().notNull(),
    audience: jsonb("audience").$type<CampaignAudience>().notNull(),
    status: text("status", { enum: ["draft", "scheduled", "sending", "paused", "done", "cancelled"] }).notNull(),
    sendAt: ts("send_at"),
    // Fixed when sending starts (the audience is resolved then); a draft's is computed when read.
    estimatedCost: jsonb("estimated_cost").$type<CampaignCost | null>(),
    createdBy: text("created_by"),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
    // The run of the pacer (campaign.dispatch job) allowed to send; schedule and resume raise it.
    dispatchGeneration: integer("dispatch_generation").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("campaigns_account_created_idx").on(t.accountId, t.createdAt, t.id)],
);
export type Campaign = typeof campaigns.$inferSelect;

/**
 * One row per recipient, written when sending starts, and its own job: `pending` → `sending`
 * (committed before the network is called) → `sent`, or `failed` / `skipped` with a reason.
 * `idempotency_key` (campaign and contact) makes a second row for the same person impossible.
 */
export const campaignRecipients = pgTable(
  "campaign_recipients",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    idempotencyKey: text("idempotency_key").notNull(),
    status: text("status", { enum: ["pending", "sending", "sent", "failed", "skipped"] }).notNull(),
    reason: text("reason"),
    messageId: text("message_id"),
    attempts: integer("attempts").notNull().default(0),
    // A retry after a temporary network error waits until then.
    runAt: ts("run_at"),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("campaign_recipients_key_idx").on(t.idempotencyKey),
    uniqueIndex("campaign_recipients_campaign_contact_idx").on(t.campaignId, t.contactId),
    index("campaign_recipients_campaign_status_idx").on(t.campaignId, t.status, t.id),
    index("campaign_recipients_message_idx")
      .on(t.messageId)
      .where(sql`${t.messageId} is not null`),
  ],
);
export type CampaignRecipient = typeof campaignRecipients.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Team workflow: automations (rules run when an event is recorded) and macros (actions a person
// runs on one conversation in one click). Conditions and actions are stored as validated JSON.

export type AutomationCondition = { field: string; operator: string; value?: string };
export type AutomationAction = { type: string } & Record<string, unknown>;

export const automations = pgTable(
  "automations",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    event: text("event").notNull(),
    conditions: jsonb("conditions").$type<AutomationCondition[]>().notNull(),
    actions: jsonb("actions").$type<AutomationAction[]>().notNull(),
    // 0-based order of the account's rules; the rules of an event run in this order.
    position: integer("position").notNull(),
    // The person who last saved the rule: its notes are written in their name.
    authorId: text("author_id").references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("automations_account_position_idx").on(t.accountId, t.position, t.id),
    index("automations_account_event_idx").on(t.accountId, t.event, t.position).where(sql`${t.enabled}`),
  ],
);

export const macros = pgTable(
  "macros",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    visibility: text("visibility", { enum: ["personal", "account"] }).notNull(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id),
    actions: jsonb("actions").$type<AutomationAction[]>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("macros_account_created_idx").on(t.accountId, t.createdAt, t.id)],
);

export type Automation = typeof automations.$inferSelect;
export type Macro = typeof macros.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Team workflow: teams, assignment policies, SLA policies and their recorded outcomes.

export const teams = pgTable(
  "teams",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("teams_account_name_idx").on(t.accountId, sql`lower(${t.name})`), index("teams_account_created_idx").on(t.accountId, t.createdAt, t.id)],
);
export type Team = typeof teams.$inferSelect;

export const teamMembers = pgTable(
  "team_members",
  {
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index("team_members_user_idx").on(t.userId)],
);

export type AssignmentMode = "manual" | "round_robin" | "balanced";
export const assignmentPolicies = pgTable(
  "assignment_policies",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    // Null: the account's policy; else the team's own.
    teamId: text("team_id").references(() => teams.id, { onDelete: "cascade" }),
    mode: text("mode", { enum: ["manual", "round_robin", "balanced"] }).notNull(),
    capacity: integer("capacity"),
    agentCapacities: jsonb("agent_capacities").$type<Record<string, number>>().notNull().default({}),
    // Round robin: the last person it handed a conversation to (the next one follows them).
    lastAssignedUserId: text("last_assigned_user_id"),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("assignment_policies_scope_idx").on(t.accountId, sql`coalesce(${t.teamId}, '')`)],
);
export type AssignmentPolicy = typeof assignmentPolicies.$inferSelect;

export const slaPolicies = pgTable(
  "sla_policies",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    firstResponseS: integer("first_response_s"),
    nextResponseS: integer("next_response_s"),
    resolutionS: integer("resolution_s"),
    businessHoursOnly: boolean("business_hours_only").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("sla_policies_account_name_idx").on(t.accountId, sql`lower(${t.name})`), index("sla_policies_account_created_idx").on(t.accountId, t.createdAt, t.id)],
);
export type SlaPolicy = typeof slaPolicies.$inferSelect;

export const workflowSettings = pgTable("workflow_settings", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  awayAfterS: integer("away_after_s").notNull().default(600),
  defaultSlaPolicyId: text("default_sla_policy_id").references(() => slaPolicies.id, { onDelete: "set null" }),
  updatedAt: updatedAt(),
});

// What happened to each SLA target (met or breached), when it happened: attainment counts these.
export const slaOutcomes = pgTable(
  "sla_outcomes",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id").notNull(),
    slaPolicyId: text("sla_policy_id").notNull(),
    kind: text("kind", { enum: ["first_response", "next_response", "resolution"] }).notNull(),
    outcome: text("outcome", { enum: ["met", "breached"] }).notNull(),
    userId: text("user_id"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("sla_outcomes_account_created_idx").on(t.accountId, t.createdAt)],
);

// Search's narrow copy of each searchable message (migration 0042, kept by triggers on messages
// in the transaction of the change; a deleted message has none): its words and the UTC hour,
// day, month and year it was written in, both in one GIN index, so the newest matches of a
// common word are found without reading every match.
export const messageSearch = pgTable(
  "message_search",
  {
    messageId: text("message_id")
      .primaryKey()
      .references(() => messages.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    conversationId: text("conversation_id").notNull(),
    createdAt: ts("created_at").notNull(),
    words: tsvector("words").notNull(),
    periods: tsvector("periods").notNull(),
  },
  (t) => [index("message_search_words_periods_idx").using("gin", t.words, t.periods)],
);
