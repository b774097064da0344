import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { LARGE_BODY_LIMIT } from "@/lib/platform/http/read-body";
import { sendMessageInput } from "@/lib/messages/schemas";
import { sendMessage } from "@/lib/messages/send-message";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute(
    { access: { auth: "scope", scope: "messages:write" }, body: sendMessageInput, idempotent: true, maxBodyBytes: LARGE_BODY_LIMIT },
    async ({ ctx, body }) => created(await sendMessage({ ctx, input: body })),
  ),
});
