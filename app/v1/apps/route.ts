import { paginationQuery } from "@/lib/platform/pagination";
import { apiRoute, defineRoute } from "@/lib/api/route";
import { createApp, listApps } from "@/lib/oauth/apps";
import { createAppInput } from "@/lib/oauth/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "apps:read" }, query: paginationQuery }, ({ ctx, query }) => listApps({ ctx, ...query })),
  POST: apiRoute({ access: { auth: "scope", scope: "apps:write" }, body: createAppInput }, async ({ ctx, body }) => {
    const app = await createApp({ ctx, input: body });
    // The client secret is in this answer only.
    return Response.json(app, { status: 201, headers: { "Cache-Control": "no-store" } });
  }),
});

