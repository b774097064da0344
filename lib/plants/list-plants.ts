import "server-only";
import { asc, eq } from "drizzle-orm";
import { plants } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { PLANT_LIST_CAP, presentPlant, type NewPlant } from "./schemas";

/** The account's plants, oldest first, at most `limit` and never more than the cap. */
export async function listPlants({ ctx, limit }: { ctx: ServiceContext; limit?: number }): Promise<NewPlant[]> {
  const rows = await ctx.db
    .select({ id: plants.id, name: plants.name, tag: plants.tag })
    .from(plants)
    .where(eq(plants.accountId, ctx.accountId))
    .orderBy(asc(plants.id))
    .limit(Math.min(limit ?? PLANT_LIST_CAP, PLANT_LIST_CAP));
  return rows.map(presentPlant);
}
