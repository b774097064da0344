import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { deleteDocument, getDocument } from "@/lib/profile/documents";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" } }, ({ ctx, params }) => getDocument({ ctx, id: params.id })),
  DELETE: apiRoute({ access: { auth: "scope", scope: "config:write" } }, async ({ ctx, params }) => {
    await deleteDocument({ ctx, id: params.id });
    return noContent();
  }),
});
