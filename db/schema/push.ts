import { boolean, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts, users } from "./accounts";
import { createdAt, ownedBy, ts, updatedAt } from "./columns";

// Web Push: the devices a user is notified on, and what they want pushed

export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    userId: ownedBy("user_id", () => users.id),
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
  accountId: ownedBy("account_id", () => accounts.id),
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
