import { apiRoute, defineRoute } from "@/lib/api/route";
import { exportConversations } from "@/lib/reports/export";
import { reportRangeQuery } from "@/lib/reports/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "reports:read" }, query: reportRangeQuery }, async ({ ctx, query }) => {
    const { filename, body } = await exportConversations({ ctx, range: query });
    return new Response(body, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${filename}"`,
        "Cache-Control": "no-store",
      },
    });
  }),
});
