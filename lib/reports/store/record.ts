import type { Executor } from "@/db";
import { reportingEvents } from "@/db/schema";

/** Stores one reporting event. */
export async function insertReportingEvent(tx: Executor, values: typeof reportingEvents.$inferInsert) {
  await tx.insert(reportingEvents).values(values);
}
