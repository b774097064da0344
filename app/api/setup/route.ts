import { setupFirstAccount, setupInput } from "@/lib/accounts/setup";
import { apiRoute, created, defineRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE } = defineRoute({
  POST: apiRoute({ access: { auth: "none" }, body: setupInput }, async ({ body }) => created(await setupFirstAccount(body))),
});
