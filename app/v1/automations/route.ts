import { paginationQuery } from "@/lib/platform/pagination";
import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { createAutomation, listAutomations } from "@/lib/automations/automations";
import { createAutomationInput } from "@/lib/automations/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" }, query: paginationQuery }, ({ ctx, query }) =>
    listAutomations({ ctx, limit: query.limit, cursor: query.cursor }),
  ),
  POST: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: createAutomationInput }, async ({ ctx, body }) =>
    created(await createAutomation({ ctx, input: body })),
  ),
});
