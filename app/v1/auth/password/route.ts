import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { changePassword, changePasswordInput } from "@/lib/users/passwords";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "any" }, sessionOnly: true, body: changePasswordInput }, async ({ ctx, body }) => {
    await changePassword({ ctx, input: body });
    return noContent();
  }),
});
