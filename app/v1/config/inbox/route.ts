import { apiRoute, defineRoute } from "@/lib/api/route";
import { getInboxSettings, updateInboxSettings } from "@/lib/conversations/inbox-settings";
import { inboxSettingsInput } from "@/lib/conversations/inbox-settings-schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" } }, ({ ctx }) => getInboxSettings({ ctx })),
  PUT: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: inboxSettingsInput }, ({ ctx, body }) => updateInboxSettings({ ctx, input: body })),
});
