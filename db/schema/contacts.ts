import { type AnyColumn, sql } from "drizzle-orm";
import { boolean, check, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, ownedBy, ts, updatedAt } from "./columns";

/** A label as a conversation carries it. */
export type LabelRef = { id: string; name: string; color: string };

/** The words contact search matches (the number is matched on its own, by digits). */
/** The name order's key: named contacts first by their unaccented lower-case name, then the unnamed by number (byte order, the same on every database). */
export const contactNameKey = (t: { name: AnyColumn; phone: AnyColumn; username: AnyColumn; networkUserId: AnyColumn }) =>
  sql`(coalesce('0' || chorus_search_text(${t.name}), '1' || coalesce(${t.phone}, ${t.username}, ${t.networkUserId})) COLLATE "C")`;
// A username's periods, underscores and dashes separate its words (`@fern.fan` is found by `fan`).
export const contactSearchDocument = (t: { name: AnyColumn; email: AnyColumn; username: AnyColumn }) =>
  sql`(coalesce(${t.name}, '') || ' ' || coalesce(${t.email}, '') || ' ' || translate(coalesce(${t.username}, ''), '._-', '   '))`;

export const contacts = pgTable(
  "contacts",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
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

export type Contact = typeof contacts.$inferSelect;
