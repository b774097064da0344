import { apiRoute, defineRoute } from "@/lib/api/route";
import { reportRangeQuery } from "@/lib/reports/schemas";
import { getSummary } from "@/lib/reports/summary";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "reports:read" }, query: reportRangeQuery }, ({ ctx, query }) => getSummary({ ctx, range: query })),
});
