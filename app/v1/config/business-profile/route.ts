import { apiRoute, defineRoute } from "@/lib/api/route";
import { getBusinessProfile, updateBusinessProfile } from "@/lib/profile/business-profile";
import { businessProfileInput } from "@/lib/profile/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" } }, ({ ctx }) => getBusinessProfile({ ctx })),
  PUT: apiRoute({ access: { auth: "scope", scope: "config:write" }, body: businessProfileInput }, ({ ctx, body }) =>
    updateBusinessProfile({ ctx, input: body }),
  ),
});
