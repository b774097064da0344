import { apiRoute, defineRoute } from "@/lib/api/route";
import { markNotificationsRead } from "@/lib/notifications/notifications";
import { markNotificationsReadInput } from "@/lib/notifications/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "any" }, body: markNotificationsReadInput }, ({ ctx, body }) => markNotificationsRead({ ctx, input: body })),
});
