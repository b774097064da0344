import { paginationQuery } from "@/lib/platform/pagination";
import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { createTeam, listTeams } from "@/lib/teams/teams";
import { createTeamInput } from "@/lib/teams/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "teams:read" }, query: paginationQuery }, ({ ctx, query }) => listTeams({ ctx, limit: query.limit, cursor: query.cursor })),
  POST: apiRoute({ access: { auth: "scope", scope: "teams:write" }, body: createTeamInput }, async ({ ctx, body }) => created(await createTeam({ ctx, input: body }))),
});
