import { apiRoute, defineRoute } from "@/lib/api/route";
import { snoozeConversationInput } from "@/lib/conversations/schemas";
import { snoozeConversation } from "@/lib/conversations/snooze";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "conversations:write" }, body: snoozeConversationInput }, ({ ctx, params, body }) =>
    snoozeConversation({ ctx, id: params.id, until: body.until }),
  ),
});
