import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { users } from "@/db/schema";

// The reads and writes of the accounts themselves.

/** Whether any user exists yet (the first run is over). */
export async function anyUserExists(db: Executor) {
  const rows = await db.select({ one: sql`1` }).from(users).limit(1);
  return rows.length > 0;
}

/** Held until the transaction ends: first-run requests racing go one at a time. */
export async function lockFirstRun(tx: Executor, lock: number) {
  await tx.execute(sql`select pg_advisory_xact_lock(${lock})`);
}
