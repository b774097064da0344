import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { deleteMacro, updateMacro } from "@/lib/automations/macros";
import { updateMacroInput } from "@/lib/automations/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  PATCH: apiRoute({ access: { auth: "scope", scope: "conversations:write" }, body: updateMacroInput }, ({ ctx, params, body }) =>
    updateMacro({ ctx, id: params.id, input: body }),
  ),
  DELETE: apiRoute({ access: { auth: "scope", scope: "conversations:write" } }, async ({ ctx, params }) => {
    await deleteMacro({ ctx, id: params.id });
    return noContent();
  }),
});
