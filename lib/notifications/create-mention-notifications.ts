import "server-only";
import type { Executor } from "@/db";
import { insertMentionNotifications } from "./store";

/** One `mention` notification per user, in the caller's transaction (with the note itself). */
export async function createMentionNotifications(
  tx: Executor,
  input: { accountId: string; conversationId: string; noteId: string; actorId: string; userIds: string[]; at: Date },
) {
  if (!input.userIds.length) return;
  await insertMentionNotifications(tx, input);
}
