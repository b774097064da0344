import { paginationQuery } from "@/lib/platform/pagination";
import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { createMacro, listMacros } from "@/lib/automations/macros";
import { createMacroInput } from "@/lib/automations/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "conversations:read" }, query: paginationQuery }, ({ ctx, query }) =>
    listMacros({ ctx, limit: query.limit, cursor: query.cursor }),
  ),
  POST: apiRoute({ access: { auth: "scope", scope: "conversations:write" }, body: createMacroInput }, async ({ ctx, body }) =>
    created(await createMacro({ ctx, input: body })),
  ),
});
