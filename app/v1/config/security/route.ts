import { apiRoute, defineRoute } from "@/lib/api/route";
import { securitySettingsInput } from "@/lib/accounts/schemas";
import { getSecuritySettings, updateSecuritySettings } from "@/lib/accounts/security";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" } }, ({ ctx }) => getSecuritySettings({ ctx })),
  PUT: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: securitySettingsInput }, ({ ctx, body }) => updateSecuritySettings({ ctx, input: body })),
});
