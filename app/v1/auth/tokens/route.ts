import { paginationQuery } from "@/lib/platform/pagination";
import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { createApiToken, listApiTokens, tokenCreationSecrets } from "@/lib/auth/api-tokens";
import { createTokenInput } from "@/lib/auth/token-schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "any" }, query: paginationQuery }, ({ ctx, query }) => listApiTokens({ ctx, ...query })),
  POST: apiRoute({ access: { auth: "any" }, sessionOnly: true, idempotent: tokenCreationSecrets, body: createTokenInput }, async ({ ctx, body }) =>
    created(await createApiToken({ ctx, input: body })),
  ),
});
