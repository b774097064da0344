import { paginationQuery } from "@/lib/platform/pagination";
import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { LARGE_BODY_LIMIT } from "@/lib/platform/http/read-body";
import { listDocuments, uploadDocument } from "@/lib/profile/documents";
import { uploadDocumentInput } from "@/lib/profile/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" }, query: paginationQuery }, ({ ctx, query }) => listDocuments({ ctx, ...query })),
  POST: apiRoute(
    { access: { auth: "scope", scope: "config:write" }, body: uploadDocumentInput, maxBodyBytes: LARGE_BODY_LIMIT },
    async ({ ctx, body }) => created(await uploadDocument({ ctx, input: body })),
  ),
});
