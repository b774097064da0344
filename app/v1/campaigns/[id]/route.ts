import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { deleteCampaign, getCampaign, updateCampaign } from "@/lib/campaigns/campaigns";
import { updateCampaignInput } from "@/lib/campaigns/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" } }, ({ ctx, params }) => getCampaign({ ctx, id: params.id })),
  PATCH: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: updateCampaignInput }, ({ ctx, params, body }) =>
    updateCampaign({ ctx, id: params.id, input: body }),
  ),
  DELETE: apiRoute({ access: { auth: "scope", scope: "config:write" } }, async ({ ctx, params }) => {
    await deleteCampaign({ ctx, id: params.id });
    return noContent();
  }),
});
