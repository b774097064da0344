import { apiRoute, defineRoute } from "@/lib/api/route";
import { describeToken } from "@/lib/auth/refresh-token";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "any" } }, ({ ctx }) => describeToken(ctx)),
});
