import "server-only";
import { and, eq } from "drizzle-orm";
import { conversationActivities, conversations } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/platform/errors";
import { keysetPage, type PageArgs } from "@/lib/platform/keyset-page";
import { presentActivity } from "./schemas";

/** A conversation's activity trail, newest first (like its messages), in keyset pages. */
export async function listActivity({ ctx, conversationId, limit, cursor }: PageArgs & { ctx: ServiceContext; conversationId: string }) {
  const db = ctx.db;
  // Checked here rather than through the conversations domain, which records activity itself.
  const [conversation] = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.accountId, ctx.accountId), eq(conversations.id, conversationId)))
    .limit(1);
  if (!conversation) throw new NotFoundError("Conversation");
  return keysetPage(db.select().from(conversationActivities).$dynamic(), {
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
