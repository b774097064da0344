import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { PLANT_LIST_CAP, presentPlant, type NewPlant } from "./schemas";
import { selectPlants } from "./store";

/** The account's plants, oldest first, at most `limit` and never more than the cap. */
export async function listPlants({ ctx, limit }: { ctx: ServiceContext; limit?: number }): Promise<NewPlant[]> {
  const rows = await selectPlants(ctx.db, { accountId: ctx.accountId, limit: Math.min(limit ?? PLANT_LIST_CAP, PLANT_LIST_CAP) });
  return rows.map(presentPlant);
}
