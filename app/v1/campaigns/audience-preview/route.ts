import { apiRoute, defineRoute } from "@/lib/api/route";
import { previewAudience } from "@/lib/campaigns/campaigns";
import { audiencePreviewInput } from "@/lib/campaigns/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "config:read" }, body: audiencePreviewInput }, ({ ctx, body }) => previewAudience({ ctx, input: body })),
});
