import { apiRoute, defineRoute } from "@/lib/api/route";
import { polishText } from "@/lib/polish/polish";
import { polishInput } from "@/lib/polish/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "messages:write" }, body: polishInput }, ({ ctx, body }) =>
    polishText({ ctx, text: body.text, style: body.style, language: body.language, conversationId: body.conversation_id }),
  ),
});
