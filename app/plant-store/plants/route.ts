import { createPlant } from "@/lib/plants/create-plant";
import { listPlants } from "@/lib/plants/list-plants";
import { definePlantRoute, plantRoute } from "@/lib/api/plant-route";
import { listPlantsQuery, plantSchema } from "@/lib/plants/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = definePlantRoute({
  GET: plantRoute({ query: listPlantsQuery }, ({ ctx, query }) => listPlants({ ctx, limit: query.limit })),
  // The plant store answers a creation with 200 and the NewPlant, not 201.
  POST: plantRoute({ body: plantSchema }, ({ ctx, body }) => createPlant({ ctx, input: body })),
});
