import { apiRoute, defineRoute } from "@/lib/api/route";
import { getMe } from "@/lib/teams/availability";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "users:read" } }, ({ ctx }) => getMe({ ctx })),
});
