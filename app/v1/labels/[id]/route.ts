import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { deleteLabel } from "@/lib/labels/labels";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  DELETE: apiRoute({ access: { auth: "scope", scope: "config:write" } }, async ({ ctx, params }) => {
    await deleteLabel({ ctx, id: params.id });
    return noContent();
  }),
});
