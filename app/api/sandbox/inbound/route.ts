import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { LARGE_BODY_LIMIT } from "@/lib/platform/http/read-body";
import { receiveSandboxMessage } from "@/lib/messages/receive-sandbox";
import { sandboxInboundInput } from "@/lib/messages/schemas";

// config:write: an administrator's session, or an api token an administrator gave that scope.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute(
    { access: { auth: "scope", scope: "config:write" }, body: sandboxInboundInput, idempotent: true, maxBodyBytes: LARGE_BODY_LIMIT },
    async ({ ctx, body }) => created(await receiveSandboxMessage({ ctx, input: body })),
  ),
});
