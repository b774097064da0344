import { paginationQuery } from "@/lib/platform/pagination";
import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { createUserInput } from "@/lib/users/schemas";
import { createUser, listUsers } from "@/lib/users/users";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "users:read" }, query: paginationQuery }, ({ ctx, query }) => listUsers({ ctx, ...query })),
  POST: apiRoute({ access: { auth: "scope", scope: "users:write" }, body: createUserInput }, async ({ ctx, body }) =>
    created(await createUser({ ctx, input: body })),
  ),
});
