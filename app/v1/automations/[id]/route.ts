import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { deleteAutomation, updateAutomation } from "@/lib/automations/automations";
import { updateAutomationInput } from "@/lib/automations/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  PATCH: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: updateAutomationInput }, ({ ctx, params, body }) =>
    updateAutomation({ ctx, id: params.id, input: body }),
  ),
  DELETE: apiRoute({ access: { auth: "scope", scope: "config:write" } }, async ({ ctx, params }) => {
    await deleteAutomation({ ctx, id: params.id });
    return noContent();
  }),
});
