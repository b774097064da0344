import { z } from "zod";
import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { announceTyping } from "@/lib/conversations/typing";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute(
    { access: { auth: "scope", scope: "conversations:write" }, body: z.object({}), allowEmptyBody: true },
    async ({ ctx, params }) => {
      await announceTyping({ ctx, conversationId: params.id });
      return noContent();
    },
  ),
});
