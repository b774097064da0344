import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { deleteWebhook } from "@/lib/webhooks/delete-webhook";
import { getWebhook } from "@/lib/webhooks/get-webhook";
import { updateWebhookInput } from "@/lib/webhooks/schemas";
import { updateWebhook } from "@/lib/webhooks/update-webhook";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "webhooks:read" } }, ({ ctx, params }) => getWebhook({ ctx, id: params.id })),
  PATCH: apiRoute({ access: { auth: "scope", scope: "webhooks:write" }, body: updateWebhookInput }, ({ ctx, params, body }) =>
    updateWebhook({ ctx, id: params.id, input: body }),
  ),
  DELETE: apiRoute({ access: { auth: "scope", scope: "webhooks:delete" } }, async ({ ctx, params }) => {
    await deleteWebhook({ ctx, id: params.id });
    return noContent();
  }),
});
