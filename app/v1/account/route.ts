import { getAccountSummary } from "@/lib/accounts/account";
import { apiRoute, defineRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "any" } }, ({ ctx }) => getAccountSummary({ ctx })),
});
