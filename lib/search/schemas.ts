import { z } from "zod";
import { prefixedId } from "@/lib/platform/fields";
import { paginationQuery } from "@/lib/platform/pagination";
import { conversationOutput } from "@/lib/conversations/schemas";

export const searchQuery = paginationQuery.extend({
  q: z
    .string({ error: "is required" })
    .trim()
    .min(2, "must be 2 to 200 characters")
    .max(200, "must be 2 to 200 characters")
    .meta({ description: "2 to 200 characters; matched case- and accent-insensitively anywhere in names, numbers, message text and notes.", example: "gomez" }),
});

const searchFields = ["name", "phone", "username", "email", "message", "note"] as const;

export const searchResultOutput = z
  .strictObject({
    conversation: conversationOutput,
    match: z.strictObject({
      field: z.enum(searchFields).meta({ description: "What matched: the contact's `name`, `phone`, `username` or `email`, a `message`'s text, or a `note`." }),
      message_id: prefixedId("message", "The matching message (field `message`).").nullable(),
      snippet: z.string().meta({ description: "The matching text around the match (about 140 characters, `…` where cut).", example: "…la entregá mañana antes de las 10?" }),
      highlights: z
        .array(z.strictObject({ start: z.int().min(0), end: z.int().min(0) }))
        .meta({ description: "Where the match is in `snippet` (UTF-16 offsets, end exclusive)." }),
    }),
  })
  .meta({ id: "SearchResult", description: "A conversation that matches, and the text that matched." });
export type SearchResultOutput = z.infer<typeof searchResultOutput>;
