import { index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { bytea, createdAt, ownedBy, updatedAt } from "./columns";

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
    accountId: ownedBy("account_id", () => accounts.id),
    filename: text("filename").notNull(),
    size: integer("size").notNull(),
    pages: integer("pages").notNull(),
    text: text("text").notNull(),
    bytes: bytea("bytes").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("documents_account_created_idx").on(t.accountId, t.createdAt, t.id)],
);

export type BusinessProfile = typeof businessProfiles.$inferSelect;
export type DocumentRow = typeof documents.$inferSelect;
