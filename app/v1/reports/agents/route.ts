import { apiRoute, defineRoute } from "@/lib/api/route";
import { getAgentsReport } from "@/lib/reports/agents";
import { reportRangeQuery } from "@/lib/reports/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "reports:read" }, query: reportRangeQuery }, ({ ctx, query }) => getAgentsReport({ ctx, range: query })),
});
