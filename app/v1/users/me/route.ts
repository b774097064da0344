import { apiRoute, defineRoute } from "@/lib/api/route";
import { getMe } from "@/lib/teams/availability";
import { updateMe } from "@/lib/users/locale";
import { updateMeInput } from "@/lib/users/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "users:read" } }, ({ ctx }) => getMe({ ctx })),
  // A person's own preferences: any of their sessions, whatever their role.
  PATCH: apiRoute({ access: { auth: "any" }, sessionOnly: true, body: updateMeInput }, ({ ctx, body }) => updateMe({ ctx, input: body })),
});
