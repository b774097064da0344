import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { recordEvent } from "@/lib/events/record-event";
import { type NewPlant, type PlantInput, presentPlant } from "./schemas";
import { insertPlant } from "./store";

/**
 * Stores a plant and, in the same transaction, the plant.created event whose webhook
 * body is the NewPlant itself (the New Plant webhook), not the event envelope.
 */
export async function createPlant({ ctx, input }: { ctx: ServiceContext; input: PlantInput }): Promise<NewPlant> {
  return ctx.db.transaction(async (tx) => {
    const row = await insertPlant(tx, { accountId: ctx.accountId, name: input.name, tag: input.tag ?? null });
    const plant = presentPlant(row);
    await recordEvent({ ...ctx, db: tx }, { accountId: ctx.accountId, type: "plant.created", data: plant, deliveryBody: plant });
    return plant;
  });
}
