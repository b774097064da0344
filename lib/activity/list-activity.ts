import "server-only";
import { eq } from "drizzle-orm";
import { conversationActivities } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/platform/errors";
import { keysetPage, type PageArgs } from "@/lib/platform/keyset-page";
import { presentActivity } from "./schemas";
import { conversationExists, selectActivities } from "./store";

/** A conversation's activity trail, newest first (like its messages), in keyset pages. */
export async function listActivity({ ctx, conversationId, limit, cursor }: PageArgs & { ctx: ServiceContext; conversationId: string }) {
  const db = ctx.db;
  if (!(await conversationExists(db, { accountId: ctx.accountId, id: conversationId }))) throw new NotFoundError("Conversation");
  return keysetPage(selectActivities(db), {
    table: conversationActivities,
    accountId: ctx.accountId,
    where: [eq(conversationActivities.conversationId, conversationId)],
    order: "desc",
    limit,
    cursor,
    position: (r) => ({ t: r.createdAt, id: r.id }),
    present: presentActivity,
  });
}
