import { apiRoute, defineRoute } from "@/lib/api/route";
import { testNumberConnection } from "@/lib/network/number-config";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "config:write" } }, ({ ctx }) => testNumberConnection({ ctx })),
});
