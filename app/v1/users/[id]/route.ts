import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { updateUserInput } from "@/lib/users/schemas";
import { deleteUser, getUser, updateUser } from "@/lib/users/users";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "users:read" } }, ({ ctx, params }) => getUser({ ctx, id: params.id })),
  PATCH: apiRoute({ access: { auth: "scope", scope: "users:write" }, body: updateUserInput }, ({ ctx, params, body }) =>
    updateUser({ ctx, id: params.id, input: body }),
  ),
  DELETE: apiRoute({ access: { auth: "scope", scope: "users:delete" } }, async ({ ctx, params }) => {
    await deleteUser({ ctx, id: params.id });
    return noContent();
  }),
});
