import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { deleteMessage, getMessage } from "@/lib/messages/messages";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "messages:read" } }, ({ ctx, params }) => getMessage({ ctx, id: params.id })),
  DELETE: apiRoute({ access: { auth: "scope", scope: "messages:delete" } }, async ({ ctx, params }) => {
    await deleteMessage({ ctx, id: params.id });
    return noContent();
  }),
});
