import { errorResponse } from "@/lib/api/errors";
import { plantErrorResponse } from "@/lib/api/plant-route";
import { answerWithoutHandler } from "@/lib/api/route";
import { MALFORMED_PATH_DETAIL, MALFORMED_PATH_HEADER, MALFORMED_PATH_MESSAGE } from "@/lib/platform/http/malformed-path";
import { requestIdOf } from "@/lib/platform/http/request";

/**
 * The answer to an API address whose `%`-escapes do not decode, which the proxy routes here
 * (naming the API in a header): a 400 in that API's error body, with the request id, and for
 * /v1 counted against the caller's address budget like any request it answers without a handler.
 */
async function malformedPath(req: Request): Promise<Response> {
  const api = req.headers.get(MALFORMED_PATH_HEADER);
  if (api === "plant-store") return plantErrorResponse(400, MALFORMED_PATH_MESSAGE, { "X-Request-Id": requestIdOf(req) });
  return answerWithoutHandler(req, (requestId) =>
    api === "v1" || api === "app"
      ? errorResponse(requestId, 400, "validation_error", MALFORMED_PATH_MESSAGE, [MALFORMED_PATH_DETAIL])
      : errorResponse(requestId, 404, "not_found", "No route matches this address."),
  );
}

export { malformedPath as GET, malformedPath as POST, malformedPath as PUT, malformedPath as PATCH, malformedPath as DELETE, malformedPath as OPTIONS };
