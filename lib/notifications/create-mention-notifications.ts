import "server-only";
import type { Executor } from "@/db";
import { notifications } from "@/db/schema";
import { newId } from "@/lib/platform/ids";

/** One `mention` notification per user, in the caller's transaction (with the note itself). */
export async function createMentionNotifications(
  tx: Executor,
  input: { accountId: string; conversationId: string; noteId: string; actorId: string; userIds: string[]; at: Date },
) {
  if (!input.userIds.length) return;
  await tx.insert(notifications).values(
    input.userIds.map((userId) => ({
      id: newId("notification", input.at),
      accountId: input.accountId,
      userId,
      type: "mention" as const,
      conversationId: input.conversationId,
      noteId: input.noteId,
      actorId: input.actorId,
      createdAt: input.at,
    })),
  );
}
