import { z } from "zod";
import { apiRoute, defineRoute } from "@/lib/api/route";
import { refreshToken } from "@/lib/auth/refresh-token";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "any" }, body: z.object({}), allowEmptyBody: true }, ({ ctx }) => refreshToken({ ctx })),
});
