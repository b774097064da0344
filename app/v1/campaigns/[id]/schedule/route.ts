import { apiRoute, defineRoute } from "@/lib/api/route";
import { scheduleCampaign } from "@/lib/campaigns/campaigns";
import { scheduleCampaignInput } from "@/lib/campaigns/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: scheduleCampaignInput, allowEmptyBody: true }, ({ ctx, params, body }) =>
    scheduleCampaign({ ctx, id: params.id, sendAt: body.send_at }),
  ),
});
