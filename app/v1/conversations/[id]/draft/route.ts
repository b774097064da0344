import { apiRoute, defineRoute } from "@/lib/api/route";
import { draftReply } from "@/lib/assistant/draft";
import { draftInput } from "@/lib/assistant/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "messages:write" }, body: draftInput }, ({ ctx, params }) => draftReply({ ctx, conversationId: params.id })),
});
