import { plantErrorResponse } from "@/lib/api/plant-route";
import { requestIdOf } from "@/lib/platform/http/request";

const notFound = async (req: Request) =>
  plantErrorResponse(404, `No route matches ${req.method} ${new URL(req.url).pathname}.`, { "X-Request-Id": requestIdOf(req) });

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
