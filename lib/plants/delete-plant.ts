import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { plants } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/platform/errors";

/** Deletes one of the account's plants; another account's plant is as unknown as a missing one. */
export async function deletePlant({ ctx, id }: { ctx: ServiceContext; id: bigint }) {
  // Compared as bigint text: converting to a JS number would round ids beyond 2^53.
  const deleted = await ctx.db
    .delete(plants)
    .where(and(eq(plants.accountId, ctx.accountId), sql`${plants.id} = ${id.toString()}::bigint`))
    .returning({ id: plants.id });
  if (deleted.length === 0) throw new NotFoundError(`Plant ${id}`);
}
