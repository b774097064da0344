import "server-only";
import { getDb } from "@/db";
import type { ServiceContext } from "@/lib/auth/context";
import { findWebhook } from "./find-webhook";
import { presentWebhook } from "./schemas";

export async function getWebhook({ ctx, id }: { ctx: ServiceContext<"user">; id: string }) {
  return presentWebhook(await findWebhook(getDb(), ctx.accountId, id));
}
