import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { deleteCannedReply, updateCannedReply } from "@/lib/canned-replies/canned-replies";
import { updateCannedReplyInput } from "@/lib/canned-replies/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  PATCH: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: updateCannedReplyInput }, ({ ctx, params, body }) =>
    updateCannedReply({ ctx, id: params.id, input: body }),
  ),
  DELETE: apiRoute({ access: { auth: "scope", scope: "config:write" } }, async ({ ctx, params }) => {
    await deleteCannedReply({ ctx, id: params.id });
    return noContent();
  }),
});
