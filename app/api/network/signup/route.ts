import { apiRoute, defineRoute } from "@/lib/api/route";
import { completeSignup, signupInput } from "@/lib/network/signup";

// config:write: an administrator's session, or an api token an administrator gave that scope.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: signupInput }, ({ ctx, body }) => completeSignup({ ctx, input: body })),
});
