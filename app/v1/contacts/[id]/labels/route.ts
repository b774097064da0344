import { apiRoute, defineRoute } from "@/lib/api/route";
import { setContactLabels } from "@/lib/contacts/labels";
import { setContactLabelsInput } from "@/lib/campaigns/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  PUT: apiRoute({ access: { auth: "scope", scope: "contacts:write" }, body: setContactLabelsInput }, ({ ctx, params, body }) =>
    setContactLabels({ ctx, id: params.id, labelIds: body.label_ids }),
  ),
});
