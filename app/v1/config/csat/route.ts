import { apiRoute, defineRoute } from "@/lib/api/route";
import { getCsatConfig, updateCsatConfig } from "@/lib/csat/config";
import { csatConfigInput } from "@/lib/csat/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" } }, ({ ctx }) => getCsatConfig({ ctx })),
  PUT: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: csatConfigInput }, ({ ctx, body }) => updateCsatConfig({ ctx, input: body })),
});
