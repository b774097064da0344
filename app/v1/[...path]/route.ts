import { errorResponse, requestIdOf } from "@/lib/api/route";

const notFound = async (req: Request) =>
  errorResponse(requestIdOf(req), 404, "not_found", `No route matches ${req.method} ${new URL(req.url).pathname}.`);

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
