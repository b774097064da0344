import { apiRoute, defineRoute } from "@/lib/api/route";
import { listContacts } from "@/lib/contacts/contacts";
import { listContactsQuery } from "@/lib/contacts/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "contacts:read" }, query: listContactsQuery }, ({ ctx, query }) =>
    listContacts({ ctx, limit: query.limit, cursor: query.cursor, q: query.q, sort: query.sort }),
  ),
});
