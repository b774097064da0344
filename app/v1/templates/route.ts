import { paginationQuery } from "@/lib/platform/pagination";
import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { LARGE_BODY_LIMIT } from "@/lib/platform/http/read-body";
import { createTemplateInput } from "@/lib/templates/schemas";
import { createTemplate, listTemplates } from "@/lib/templates/templates";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" }, query: paginationQuery }, ({ ctx, query }) => listTemplates({ ctx, ...query })),
  // A media header's file travels in the body (a video up to 16 MB, as Base64).
  POST: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: createTemplateInput, maxBodyBytes: LARGE_BODY_LIMIT }, async ({ ctx, body }) =>
    created(await createTemplate({ ctx, input: body })),
  ),
});
