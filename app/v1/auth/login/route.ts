import { apiRoute, clientAddress, defineRoute } from "@/lib/api/route";
import { loginInput, loginWithPassword } from "@/lib/auth/login";

export const { GET, POST, PUT, PATCH, DELETE } = defineRoute({
  POST: apiRoute({ access: { auth: "none" }, body: loginInput }, ({ req, body }) =>
    loginWithPassword({ ...body, ip: clientAddress(req) }),
  ),
});
