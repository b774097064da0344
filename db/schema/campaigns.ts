import { sql } from "drizzle-orm";
import { bigserial, boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, ownedBy, ts, updatedAt } from "./columns";
import { contacts } from "./contacts";

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
    accountId: ownedBy("account_id", () => accounts.id),
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
    accountId: ownedBy("account_id", () => accounts.id),
    campaignId: ownedBy("campaign_id", () => campaigns.id),
    contactId: ownedBy("contact_id", () => contacts.id),
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
