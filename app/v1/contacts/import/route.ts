import { apiRoute, defineRoute } from "@/lib/api/route";
import { importContacts } from "@/lib/contacts/import";
import { importContactsInput } from "@/lib/contacts/import-schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "contacts:write" }, body: importContactsInput, maxBodyBytes: 6 * 1024 * 1024 }, ({ ctx, body }) =>
    importContacts({ ctx, input: body }),
  ),
});
