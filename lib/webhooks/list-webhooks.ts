import "server-only";
import { type CursorPosition } from "@/lib/platform/cursor";
import type { ServiceContext } from "@/lib/auth/context";
import { presentWebhook } from "./schemas";
import { pageOfWebhooks } from "./store";

export async function listWebhooks({ ctx, limit, cursor }: { ctx: ServiceContext<"user">; limit: number; cursor?: CursorPosition }) {
  return pageOfWebhooks(ctx.db, { accountId: ctx.accountId, limit, cursor, present: presentWebhook });
}
