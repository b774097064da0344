import { z } from "zod";
import { limitSchema } from "@/lib/platform/pagination";

/** What `GET /v1/conversations/{id}` can bring along with the conversation. */
const conversationIncludes = ["messages", "notes", "activity"] as const;
export type ConversationInclude = (typeof conversationIncludes)[number];

export const getConversationQuery = z.object({
  include: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const names = (value ?? "").split(",").map((name) => name.trim()).filter(Boolean);
      const unknown = names.filter((name) => !(conversationIncludes as readonly string[]).includes(name));
      if (unknown.length) {
        ctx.addIssue({ code: "custom", message: `must be a comma-separated list of ${conversationIncludes.join(", ")}; unknown: ${unknown.join(", ")}` });
        return z.NEVER;
      }
      return [...new Set(names)] as ConversationInclude[];
    })
    .meta({
      description:
        "Comma-separated: `messages` (needs `messages:read`), `notes`, `activity`. Each brings the newest page of that list, newest first, so a client opens a conversation with one request.",
      example: "messages,notes,activity",
    }),
  limit: limitSchema.meta({ description: "With `include=messages`: how many of the newest messages, 1 to 100.", example: 50 }),
});
