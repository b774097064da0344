import { paginationQuery } from "@/lib/platform/pagination";
import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { createSlaPolicy, listSlaPolicies } from "@/lib/sla/policies";
import { createSlaPolicyInput } from "@/lib/sla/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" }, query: paginationQuery }, ({ ctx, query }) => listSlaPolicies({ ctx, limit: query.limit, cursor: query.cursor })),
  POST: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: createSlaPolicyInput }, async ({ ctx, body }) => created(await createSlaPolicy({ ctx, input: body }))),
});
