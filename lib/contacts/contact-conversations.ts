import "server-only";
import { eq } from "drizzle-orm";
import { conversations } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import type { CursorPosition } from "@/lib/platform/cursor";
import { keysetPage } from "@/lib/platform/keyset-page";
import { presentConversation } from "@/lib/conversations/schemas";
import { joinContact, selectConversations } from "@/lib/conversations/store";

/** The contact's conversations, newest first (the contact page). */
export async function listContactConversations({ ctx, contactId, limit, cursor }: { ctx: ServiceContext; contactId: string; limit: number; cursor?: CursorPosition }) {
  return keysetPage(selectConversations(ctx.db).$dynamic(), {
    table: conversations,
    accountId: ctx.accountId,
    where: [eq(conversations.contactId, contactId)],
    order: "desc",
    limit,
    cursor,
    position: (r) => ({ t: r.conversation.createdAt, id: r.conversation.id }),
    present: (r) => presentConversation(joinContact(r)),
  });
}
