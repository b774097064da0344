import { apiRoute, defineRoute } from "@/lib/api/route";
import { resendInvitation } from "@/lib/users/invitations";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "users:write" } }, async ({ ctx, params }) =>
    // The new link is a secret: no cache may keep it.
    Response.json(await resendInvitation({ ctx, id: params.id }), { headers: { "Cache-Control": "no-store" } }),
  ),
});
