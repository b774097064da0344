import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { revokeApiToken } from "@/lib/auth/api-tokens";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  DELETE: apiRoute({ access: { auth: "any" } }, async ({ ctx, params }) => {
    await revokeApiToken({ ctx, id: params.id });
    return noContent();
  }),
});
