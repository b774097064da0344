import { apiRoute, defineRoute } from "@/lib/api/route";
import { runMacro } from "@/lib/automations/macros";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "conversations:write" } }, ({ ctx, params }) =>
    runMacro({ ctx, conversationId: params.id, macroId: params.macro_id }),
  ),
});
