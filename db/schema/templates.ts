import { bigserial, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, ownedBy, updatedAt } from "./columns";

// Network fidelity: message templates and statuses that arrived before their send was recorded.

export const messageTemplates = pgTable(
  "message_templates",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
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
    accountId: ownedBy("account_id", () => accounts.id),
    networkMessageId: text("network_message_id").notNull(),
    status: text("status", { enum: ["sent", "delivered", "read", "failed"] }).notNull(),
    error: jsonb("error").$type<{ code: string; message: string } | null>(),
    createdAt: createdAt(),
  },
  (t) => [index("early_statuses_account_network_id_idx").on(t.accountId, t.networkMessageId)],
);

export type MessageTemplate = typeof messageTemplates.$inferSelect;
