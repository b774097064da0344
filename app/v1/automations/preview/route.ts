import { apiRoute, defineRoute } from "@/lib/api/route";
import { previewAutomation } from "@/lib/automations/preview";
import { previewAutomationInput } from "@/lib/automations/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "config:read" }, body: previewAutomationInput }, ({ ctx, body }) =>
    previewAutomation({ ctx, conditions: body.conditions }),
  ),
});
