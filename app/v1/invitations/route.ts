import { apiRoute, defineRoute } from "@/lib/api/route";
import { createInvitation, createInvitationInput, listPendingInvitations } from "@/lib/users/invitations";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "users:read" } }, ({ ctx }) => listPendingInvitations({ ctx })),
  POST: apiRoute({ access: { auth: "scope", scope: "users:write" }, body: createInvitationInput }, async ({ ctx, body }) =>
    // The link is a secret: no cache may keep it.
    Response.json(await createInvitation({ ctx, input: body }), { status: 201, headers: { "Cache-Control": "no-store" } }),
  ),
});
