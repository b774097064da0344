import { apiRoute, defineRoute } from "@/lib/api/route";
import { countInbox } from "@/lib/inbox/count-inbox";

// The inbox's filter-tab counts and unread total (the tab title); not part of the /v1 contract.
export const { GET, POST, PUT, PATCH, DELETE } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "conversations:read" } }, ({ ctx }) => countInbox({ ctx })),
});
