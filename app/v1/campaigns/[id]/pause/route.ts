import { apiRoute, defineRoute } from "@/lib/api/route";
import { pauseCampaign } from "@/lib/campaigns/campaigns";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "config:write" } }, ({ ctx, params }) => pauseCampaign({ ctx, id: params.id })),
});
