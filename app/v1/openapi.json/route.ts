import { apiRoute, defineRoute } from "@/lib/api/route";
import { v1Document } from "@/lib/openapi/v1";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "none" } }, () =>
    Response.json(v1Document(), { headers: { "Cache-Control": "public, max-age=300" } }),
  ),
});
