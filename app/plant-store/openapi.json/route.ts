import { plantStoreDocument } from "@/lib/openapi/plant-store";
import { definePlantRoute, plantRoute } from "@/lib/plants/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = definePlantRoute({
  GET: plantRoute({ auth: false }, () =>
    Response.json(plantStoreDocument(), { headers: { "Cache-Control": "public, max-age=300" } }),
  ),
});
