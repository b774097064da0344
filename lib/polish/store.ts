import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { contacts, conversations, users } from "@/db/schema";

// The reads polishing needs: the names it must write correctly.

/** The conversation's contact name (null when they have none); undefined when there is no such conversation. */
export async function findConversationContactName(db: Executor, { accountId, conversationId }: { accountId: string; conversationId: string }) {
  const [row] = await db
    .select({ name: contacts.name })
    .from(conversations)
    .innerJoin(contacts, eq(contacts.id, conversations.contactId))
    .where(and(eq(conversations.accountId, accountId), eq(conversations.id, conversationId)))
    .limit(1);
  return row;
}

/** The names of the account's team. */
export async function selectTeamNames(db: Executor, accountId: string) {
  const team = await db.select({ name: users.name }).from(users).where(eq(users.accountId, accountId));
  return team.map((member) => member.name);
}
