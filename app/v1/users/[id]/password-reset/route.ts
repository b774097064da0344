import { apiRoute, defineRoute } from "@/lib/api/route";
import { issuePasswordReset } from "@/lib/users/passwords";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "users:write" } }, async ({ ctx, params }) =>
    // The link is a secret: no cache may keep it.
    Response.json(await issuePasswordReset({ ctx, userId: params.id }), { status: 201, headers: { "Cache-Control": "no-store" } }),
  ),
});
