import { paginationQuery } from "@/lib/api/pagination";
import { apiRoute, created, defineRoute, LARGE_BODY_LIMIT } from "@/lib/api/route";
import { listDocuments, uploadDocument } from "@/lib/profile/documents";
import { uploadDocumentInput } from "@/lib/profile/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" }, query: paginationQuery }, ({ ctx, query }) => listDocuments({ ctx, ...query })),
  POST: apiRoute(
    { access: { auth: "scope", scope: "config:write" }, body: uploadDocumentInput, maxBodyBytes: LARGE_BODY_LIMIT },
    async ({ ctx, body }) => created(await uploadDocument({ ctx, input: body })),
  ),
});
