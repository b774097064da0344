import { apiRoute, defineRoute } from "@/lib/api/route";
import { checkHealth } from "@/lib/server/health";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "any" } }, ({ ctx }) => checkHealth({ accountId: ctx.accountId })),
});
