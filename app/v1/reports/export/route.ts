import { apiRoute, defineRoute } from "@/lib/api/route";
import { exportConversationsCsv } from "@/lib/reports/export";
import { reportRangeQuery } from "@/lib/reports/schemas";

const day = (date: Date) => date.toISOString().slice(0, 10);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "reports:read" }, query: reportRangeQuery }, ({ ctx, query }) =>
    new Response(exportConversationsCsv({ ctx, range: query }), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="conversations-${day(query.from)}-${day(query.to)}.csv"`,
        "Cache-Control": "no-store",
      },
    }),
  ),
});
