import { apiRoute, defineRoute } from "@/lib/api/route";
import { setMyAvailability } from "@/lib/teams/availability";
import { setAvailabilityInput } from "@/lib/teams/availability-schemas";

// A person's own setting, said by them: any signed-in session, never an API token.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  PUT: apiRoute({ access: { auth: "any" }, sessionOnly: true, body: setAvailabilityInput }, ({ ctx, body }) => setMyAvailability({ ctx, availability: body.availability })),
});
