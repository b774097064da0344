import { peekLoginBudget } from "@/lib/platform/rate-limit";
import { apiRoute, defineRoute } from "@/lib/api/route";
import { clientAddress } from "@/lib/platform/http/client-address";
import { loginInput, loginWithPassword } from "@/lib/auth/login";
import { systemContext } from "@/lib/server/context";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute(
    { access: { auth: "none" }, ownRateLimit: { peek: (req) => peekLoginBudget(clientAddress(req)) }, body: loginInput },
    ({ req, body, reportRateLimit }) => loginWithPassword(systemContext().db, { ...body, ip: clientAddress(req), onLimit: reportRateLimit }),
  ),
});
