import { apiRoute, defineRoute } from "@/lib/api/route";
import { applySlaToConversation } from "@/lib/sla/apply";
import { applySlaInput } from "@/lib/sla/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  PUT: apiRoute({ access: { auth: "scope", scope: "conversations:write" }, body: applySlaInput }, ({ ctx, params, body }) =>
    applySlaToConversation({ ctx, id: params.id, slaPolicyId: body.sla_policy_id }),
  ),
});
