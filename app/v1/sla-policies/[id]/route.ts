import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { deleteSlaPolicy, getSlaPolicy, updateSlaPolicy } from "@/lib/sla/policies";
import { updateSlaPolicyInput } from "@/lib/sla/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" } }, ({ ctx, params }) => getSlaPolicy({ ctx, id: params.id })),
  PATCH: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: updateSlaPolicyInput }, ({ ctx, params, body }) => updateSlaPolicy({ ctx, id: params.id, input: body })),
  DELETE: apiRoute({ access: { auth: "scope", scope: "config:write" } }, async ({ ctx, params }) => {
    await deleteSlaPolicy({ ctx, id: params.id });
    return noContent();
  }),
});
