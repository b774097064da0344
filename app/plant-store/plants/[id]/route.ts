import { deletePlant } from "@/lib/plants/delete-plant";
import { definePlantRoute, plantRoute } from "@/lib/api/plant-route";
import { plantIdParams } from "@/lib/plants/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = definePlantRoute({
  DELETE: plantRoute({ params: plantIdParams }, async ({ ctx, params }) => {
    await deletePlant({ ctx, id: params.id });
    return new Response(null, { status: 204 });
  }),
});
