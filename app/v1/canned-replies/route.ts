import { paginationQuery } from "@/lib/platform/pagination";
import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { createCannedReply, listCannedReplies } from "@/lib/canned-replies/canned-replies";
import { createCannedReplyInput } from "@/lib/canned-replies/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" }, query: paginationQuery }, ({ ctx, query }) =>
    listCannedReplies({ ctx, limit: query.limit, cursor: query.cursor }),
  ),
  POST: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: createCannedReplyInput }, async ({ ctx, body }) =>
    created(await createCannedReply({ ctx, input: body })),
  ),
});
