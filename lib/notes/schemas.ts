import { z } from "zod";
import type { ConversationNote } from "@/db/schema";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";

const userIdPattern = /^usr_[0-9a-z]{26}$/;

export const createNoteInput = z
  .strictObject({
    text: z
      .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
      .refine((value) => value.trim().length > 0, "must not be empty")
      .refine((value) => value.length <= 4096, "must be at most 4096 characters")
      .meta({ description: "The note, 1 to 4096 characters. Only teammates see it; it is never sent to the customer.", example: "@Bruno can you check the stock?" }),
    mentions: z
      .array(z.string().regex(userIdPattern, "must be a user id (usr_...)"), { error: "must be a list of user ids" })
      .max(50, "must name at most 50 users")
      .optional()
      .meta({ description: "Users of the account to notify (each gets a `mention` notification). A deleted user or one of another account is a 400." }),
  })
  .meta({ id: "NoteInput" });
export type CreateNoteInput = z.infer<typeof createNoteInput>;

export const noteOutput = z
  .strictObject({
    id: prefixedId("note"),
    conversation_id: prefixedId("conversation"),
    author: z.strictObject({ id: prefixedId("user"), name: z.string().meta({ example: "Ana" }) }).meta({ description: "Who wrote it." }),
    text: z.string(),
    mentions: z.array(prefixedId("user")).meta({ description: "The users mentioned." }),
    created_at: isoTimestamp(),
  })
  .meta({ id: "Note", description: "An internal note in a conversation: seen by teammates, never sent to the customer." });
export type NoteOutput = z.infer<typeof noteOutput>;

export function presentNote(row: ConversationNote, author: { id: string; name: string }): NoteOutput {
  return {
    id: row.id,
    conversation_id: row.conversationId,
    author: { id: author.id, name: author.name },
    text: row.text,
    mentions: row.mentions,
    created_at: row.createdAt.toISOString(),
  };
}
