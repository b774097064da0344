import { apiRoute, defineRoute } from "@/lib/api/route";
import { getCampaignSettings, updateCampaignSettings } from "@/lib/campaigns/settings";
import { campaignSettingsInput } from "@/lib/campaigns/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" } }, ({ ctx }) => getCampaignSettings({ ctx })),
  PUT: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: campaignSettingsInput }, ({ ctx, body }) => updateCampaignSettings({ ctx, input: body })),
});
