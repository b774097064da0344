import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { findWebhook } from "./store";
import { presentWebhook } from "./schemas";

export async function getWebhook({ ctx, id }: { ctx: ServiceContext<"user">; id: string }) {
  return presentWebhook(await findWebhook(ctx.db, ctx.accountId, id));
}
