import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { dismissSuggestion } from "@/lib/profile/knowledge";
import { dismissSuggestionInput } from "@/lib/profile/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "messages:write" }, body: dismissSuggestionInput }, async ({ ctx, params, body }) => {
    await dismissSuggestion({ ctx, conversationId: params.id, suggestionId: body.suggestion_id });
    return noContent();
  }),
});
