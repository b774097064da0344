import { paginationQuery } from "@/lib/platform/pagination";
import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { createNote } from "@/lib/notes/create-note";
import { listNotes } from "@/lib/notes/list-notes";
import { createNoteInput } from "@/lib/notes/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "conversations:read" }, query: paginationQuery }, ({ ctx, params, query }) =>
    listNotes({ ctx, conversationId: params.id, limit: query.limit, cursor: query.cursor }),
  ),
  POST: apiRoute({ access: { auth: "scope", scope: "conversations:write" }, body: createNoteInput }, async ({ ctx, params, body }) =>
    created(await createNote({ ctx, conversationId: params.id, input: body })),
  ),
});
