import { apiRoute, defineRoute } from "@/lib/api/route";
import { reportRangeQuery } from "@/lib/reports/schemas";
import { getSpend } from "@/lib/reports/spend";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "reports:read" }, query: reportRangeQuery }, ({ ctx, query }) => getSpend({ ctx, range: query })),
});
