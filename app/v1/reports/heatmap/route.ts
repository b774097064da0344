import { apiRoute, defineRoute } from "@/lib/api/route";
import { getHeatmap } from "@/lib/reports/heatmap";
import { reportRangeQuery } from "@/lib/reports/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "reports:read" }, query: reportRangeQuery }, ({ ctx, query }) => getHeatmap({ ctx, range: query })),
});
