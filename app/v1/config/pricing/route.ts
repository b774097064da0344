import { apiRoute, defineRoute } from "@/lib/api/route";
import { getPricing, updatePricing } from "@/lib/pricing/pricing";
import { pricingInput } from "@/lib/pricing/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" } }, ({ ctx }) => getPricing({ ctx })),
  PUT: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: pricingInput }, ({ ctx, body }) => updatePricing({ ctx, input: body })),
});
