import { apiRoute, defineRoute } from "@/lib/api/route";
import { estimateMessage } from "@/lib/pricing/pricing";
import { estimateQuery } from "@/lib/pricing/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" }, query: estimateQuery }, ({ ctx, query }) => estimateMessage({ ctx, to: query.to, category: query.category })),
});
