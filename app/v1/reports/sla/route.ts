import { apiRoute, defineRoute } from "@/lib/api/route";
import { reportRangeQuery } from "@/lib/reports/schemas";
import { getSlaReport } from "@/lib/sla/report";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "reports:read" }, query: reportRangeQuery }, ({ ctx, query }) => getSlaReport({ ctx, range: query })),
});
