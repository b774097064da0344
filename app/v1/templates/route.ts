import { paginationQuery } from "@/lib/platform/pagination";
import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { createTemplateInput } from "@/lib/templates/schemas";
import { createTemplate, listTemplates } from "@/lib/templates/templates";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" }, query: paginationQuery }, ({ ctx, query }) => listTemplates({ ctx, ...query })),
  POST: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: createTemplateInput }, async ({ ctx, body }) =>
    created(await createTemplate({ ctx, input: body })),
  ),
});
