import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { deleteTeam, getTeam, updateTeam } from "@/lib/teams/teams";
import { updateTeamInput } from "@/lib/teams/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "teams:read" } }, ({ ctx, params }) => getTeam({ ctx, id: params.id })),
  PATCH: apiRoute({ access: { auth: "scope", scope: "teams:write" }, body: updateTeamInput }, ({ ctx, params, body }) => updateTeam({ ctx, id: params.id, input: body })),
  DELETE: apiRoute({ access: { auth: "scope", scope: "teams:write" } }, async ({ ctx, params }) => {
    await deleteTeam({ ctx, id: params.id });
    return noContent();
  }),
});
