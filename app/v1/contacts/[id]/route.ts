import { apiRoute, defineRoute } from "@/lib/api/route";
import { getContact, updateContact } from "@/lib/contacts/contacts";
import { updateContactInput } from "@/lib/contacts/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "contacts:read" } }, ({ ctx, params }) => getContact({ ctx, id: params.id })),
  PATCH: apiRoute({ access: { auth: "scope", scope: "contacts:write" }, body: updateContactInput }, ({ ctx, params, body }) =>
    updateContact({ ctx, id: params.id, input: body }),
  ),
});
