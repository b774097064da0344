import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/platform/errors";
import { deletePlantRow } from "./store";

/** Deletes one of the account's plants; another account's plant is as unknown as a missing one. */
export async function deletePlant({ ctx, id }: { ctx: ServiceContext; id: bigint }) {
  if (!(await deletePlantRow(ctx.db, { accountId: ctx.accountId, id }))) throw new NotFoundError(`Plant ${id}`);
}
