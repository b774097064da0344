import { apiRoute, defineRoute } from "@/lib/api/route";
import { getAssignmentConfig, updateAssignmentConfig } from "@/lib/teams/assignment";
import { assignmentConfigInput, assignmentConfigQuery } from "@/lib/teams/assignment-schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" }, query: assignmentConfigQuery }, ({ ctx, query }) => getAssignmentConfig({ ctx, teamId: query.team_id })),
  PUT: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: assignmentConfigInput }, ({ ctx, body }) => updateAssignmentConfig({ ctx, input: body })),
});
