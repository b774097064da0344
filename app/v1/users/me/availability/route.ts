import { apiRoute, defineRoute } from "@/lib/api/route";
import { setMyAvailability } from "@/lib/teams/availability";
import { setAvailabilityInput } from "@/lib/teams/availability-schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  PUT: apiRoute({ access: { auth: "scope", scope: "users:read" }, body: setAvailabilityInput }, ({ ctx, body }) => setMyAvailability({ ctx, availability: body.availability })),
});
