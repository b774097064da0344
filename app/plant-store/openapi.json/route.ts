import { serveDocument } from "@/lib/openapi/serve-document";
import { plantStoreDocument } from "@/lib/openapi/plant-store";
import { definePlantRoute, plantRoute } from "@/lib/api/plant-route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = definePlantRoute({
  GET: plantRoute({ auth: false }, ({ req }) => serveDocument(req, "plant-store", plantStoreDocument)),
});
