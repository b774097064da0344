import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { revokeInvitation } from "@/lib/users/invitations";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  DELETE: apiRoute({ access: { auth: "scope", scope: "users:write" } }, async ({ ctx, params }) => {
    await revokeInvitation({ ctx, id: params.id });
    return noContent();
  }),
});
