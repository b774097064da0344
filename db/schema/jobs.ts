import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, ts, updatedAt } from "./columns";

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

export type Job = typeof jobs.$inferSelect;
