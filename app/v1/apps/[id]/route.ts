import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { deleteApp } from "@/lib/oauth/apps";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  DELETE: apiRoute({ access: { auth: "scope", scope: "apps:write" } }, async ({ ctx, params }) => {
    await deleteApp({ ctx, id: params.id });
    return noContent();
  }),
});
