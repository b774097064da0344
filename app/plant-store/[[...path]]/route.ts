import { plantErrorResponse } from "@/lib/api/plant-route";

const notFound = async (req: Request) =>
  plantErrorResponse(404, `No route matches ${req.method} ${new URL(req.url).pathname}.`);

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
