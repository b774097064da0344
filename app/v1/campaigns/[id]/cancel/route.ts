import { apiRoute, defineRoute } from "@/lib/api/route";
import { cancelCampaign } from "@/lib/campaigns/campaigns";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "config:write" } }, ({ ctx, params }) => cancelCampaign({ ctx, id: params.id })),
});
