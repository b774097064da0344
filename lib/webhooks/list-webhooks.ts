import "server-only";
import { webhooks } from "@/db/schema";
import { type CursorPosition } from "@/lib/platform/cursor";
import { keysetPage } from "@/lib/platform/keyset-page";
import type { ServiceContext } from "@/lib/auth/context";
import { presentWebhook } from "./schemas";

export async function listWebhooks({ ctx, limit, cursor }: { ctx: ServiceContext<"user">; limit: number; cursor?: CursorPosition }) {
  return keysetPage(ctx.db.select().from(webhooks).$dynamic(), {
    table: webhooks,
    accountId: ctx.accountId,
    order: "asc",
    limit,
    cursor,
    position: (w) => ({ t: w.createdAt, id: w.id }),
    present: presentWebhook,
  });
}
