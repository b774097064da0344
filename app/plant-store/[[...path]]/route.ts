import { plantErrorResponse } from "@/lib/api/plant-route";
import { isMalformedPathTarget, MALFORMED_PATH_MESSAGE } from "@/lib/platform/http/malformed-path";
import { requestIdOf } from "@/lib/platform/http/request";

// Unknown plant store paths, and paths whose escapes do not decode (routed here by the proxy).
const notFound = async (req: Request) => {
  const { pathname } = new URL(req.url);
  const headers = { "X-Request-Id": requestIdOf(req) };
  return isMalformedPathTarget(pathname)
    ? plantErrorResponse(400, MALFORMED_PATH_MESSAGE, headers)
    : plantErrorResponse(404, `No route matches ${req.method} ${pathname}.`, headers);
};

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
