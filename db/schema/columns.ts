import { type AnyPgColumn, customType, text, timestamp } from "drizzle-orm/pg-core";

// Timestamps are written by the application with millisecond precision so that a
// keyset cursor built from a JS Date matches the stored value exactly.
export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });
export const createdAt = () =>
  ts("created_at")
    .notNull()
    .$defaultFn(() => new Date());
export const updatedAt = () =>
  ts("updated_at")
    .notNull()
    .$defaultFn(() => new Date());

export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** A full-text search document (PostgreSQL `tsvector`), read and written as its text form. */
export const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * A required reference to another table's row that goes when that row goes: a row owned by an
 * account, a user, a conversation…
 */
export const ownedBy = (name: string, target: () => AnyPgColumn) => text(name).notNull().references(target, { onDelete: "cascade" });
