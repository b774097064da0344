import { apiRoute, defineRoute } from "@/lib/api/route";
import { timeseriesQuery } from "@/lib/reports/schemas";
import { getTimeseries } from "@/lib/reports/timeseries";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "reports:read" }, query: timeseriesQuery }, ({ ctx, query }) => getTimeseries({ ctx, query })),
});
