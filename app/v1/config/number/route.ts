import { apiRoute, defineRoute } from "@/lib/api/route";
import { getNumberConfig, numberConfigInput, updateNumberConfig } from "@/lib/network/number-config";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" } }, ({ ctx }) => getNumberConfig({ ctx })),
  PUT: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: numberConfigInput }, ({ ctx, body }) =>
    updateNumberConfig({ ctx, input: body }),
  ),
});
