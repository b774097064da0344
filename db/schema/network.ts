import { sql } from "drizzle-orm";
import { boolean, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { ts, updatedAt } from "./columns";

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

export type NumberIntegration = typeof numberIntegrations.$inferSelect;
