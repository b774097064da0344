import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { markConversationRead } from "@/lib/inbox/mark-read";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "conversations:read" } }, async ({ ctx, params }) => {
    await markConversationRead({ ctx, id: params.id });
    return noContent();
  }),
});
