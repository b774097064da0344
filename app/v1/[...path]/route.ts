import { errorResponse } from "@/lib/api/errors";
import { answerWithoutHandler } from "@/lib/api/route";
import { isMalformedPathTarget, MALFORMED_PATH_DETAIL, MALFORMED_PATH_MESSAGE } from "@/lib/platform/http/malformed-path";

// Unknown /v1 paths, and paths whose escapes do not decode (routed here by the proxy).
const notFound = async (req: Request) =>
  answerWithoutHandler(req, (requestId) => {
    const { pathname } = new URL(req.url);
    return isMalformedPathTarget(pathname)
      ? errorResponse(requestId, 400, "validation_error", MALFORMED_PATH_MESSAGE, [MALFORMED_PATH_DETAIL])
      : errorResponse(requestId, 404, "not_found", `No route matches ${req.method} ${pathname}.`);
  });

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
