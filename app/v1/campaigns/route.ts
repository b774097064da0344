import { paginationQuery } from "@/lib/platform/pagination";
import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { createCampaign, listCampaigns } from "@/lib/campaigns/campaigns";
import { createCampaignInput } from "@/lib/campaigns/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" }, query: paginationQuery }, ({ ctx, query }) =>
    listCampaigns({ ctx, limit: query.limit, cursor: query.cursor }),
  ),
  POST: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: createCampaignInput, idempotent: true }, async ({ ctx, body }) =>
    created(await createCampaign({ ctx, input: body })),
  ),
});
