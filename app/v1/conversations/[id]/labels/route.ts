import { apiRoute, defineRoute } from "@/lib/api/route";
import { setConversationLabels } from "@/lib/labels/labels";
import { setConversationLabelsInput } from "@/lib/labels/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  PUT: apiRoute({ access: { auth: "scope", scope: "conversations:write" }, body: setConversationLabelsInput }, ({ ctx, params, body }) =>
    setConversationLabels({ ctx, id: params.id, labelIds: body.label_ids }),
  ),
});
