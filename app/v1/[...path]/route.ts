import { errorResponse } from "@/lib/api/errors";
import { answerWithoutHandler } from "@/lib/api/route";

const notFound = async (req: Request) =>
  answerWithoutHandler(req, (requestId) =>
    errorResponse(requestId, 404, "not_found", `No route matches ${req.method} ${new URL(req.url).pathname}.`),
  );

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
