import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { deleteTemplate, getTemplate } from "@/lib/templates/templates";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" } }, ({ ctx, params }) => getTemplate({ ctx, id: params.id })),
  DELETE: apiRoute({ access: { auth: "scope", scope: "config:write" } }, async ({ ctx, params }) => {
    await deleteTemplate({ ctx, id: params.id });
    return noContent();
  }),
});
