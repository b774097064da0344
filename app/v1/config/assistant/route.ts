import { apiRoute, defineRoute } from "@/lib/api/route";
import { getAssistantConfig, updateAssistantConfig } from "@/lib/assistant/settings";
import { assistantConfigInput } from "@/lib/assistant/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" } }, ({ ctx }) => getAssistantConfig({ ctx })),
  PUT: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: assistantConfigInput }, ({ ctx, body }) => updateAssistantConfig({ ctx, input: body })),
});
