import { paginationQuery } from "@/lib/platform/pagination";
import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { createLabel, listLabels } from "@/lib/labels/labels";
import { createLabelInput } from "@/lib/labels/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" }, query: paginationQuery }, ({ ctx, query }) =>
    listLabels({ ctx, limit: query.limit, cursor: query.cursor }),
  ),
  POST: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: createLabelInput }, async ({ ctx, body }) =>
    created(await createLabel({ ctx, input: body })),
  ),
});
