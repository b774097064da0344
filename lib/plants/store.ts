import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { plants } from "@/db/schema";

// The reads and writes of the plant store.

export async function insertPlant(db: Executor, values: { accountId: string; name: string; tag: string | null }) {
  const [row] = await db.insert(plants).values(values).returning({ id: plants.id, name: plants.name, tag: plants.tag });
  return row;
}

/** Deletes one plant of the account; false when there was none. */
export async function deletePlantRow(db: Executor, { accountId, id }: { accountId: string; id: bigint }) {
  // Compared as bigint text: converting to a JS number would round ids beyond 2^53.
  const deleted = await db
    .delete(plants)
    .where(and(eq(plants.accountId, accountId), sql`${plants.id} = ${id.toString()}::bigint`))
    .returning({ id: plants.id });
  return deleted.length > 0;
}

/** The account's plants, oldest first. */
export function selectPlants(db: Executor, { accountId, limit }: { accountId: string; limit: number }) {
  return db
    .select({ id: plants.id, name: plants.name, tag: plants.tag })
    .from(plants)
    .where(eq(plants.accountId, accountId))
    .orderBy(asc(plants.id))
    .limit(limit);
}
