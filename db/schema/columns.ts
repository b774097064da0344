import { customType, timestamp } from "drizzle-orm/pg-core";

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
