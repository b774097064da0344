import { paginationQuery } from "@/lib/platform/pagination";
import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { createApiToken, createTokenInput, listApiTokens, tokenCreationSecrets } from "@/lib/auth/api-tokens";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "any" }, query: paginationQuery }, ({ ctx, query }) => listApiTokens({ ctx, ...query })),
  POST: apiRoute({ access: { auth: "any" }, sessionOnly: true, idempotent: tokenCreationSecrets, body: createTokenInput }, async ({ ctx, body }) =>
    created(await createApiToken({ ctx, input: body })),
  ),
});
