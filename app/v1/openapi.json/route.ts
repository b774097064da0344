import { apiRoute, defineRoute } from "@/lib/api/route";
import { serveDocument } from "@/lib/openapi/serve-document";
import { v1Document } from "@/lib/openapi/v1";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "none" } }, ({ req }) => serveDocument(req, "v1", v1Document)),
});
