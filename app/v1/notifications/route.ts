import { apiRoute, defineRoute } from "@/lib/api/route";
import { listNotifications } from "@/lib/notifications/notifications";
import { listNotificationsQuery } from "@/lib/notifications/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "any" }, query: listNotificationsQuery }, ({ ctx, query }) =>
    listNotifications({ ctx, limit: query.limit, cursor: query.cursor, unread: query.unread }),
  ),
});
