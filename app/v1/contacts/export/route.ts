import { apiRoute, defineRoute } from "@/lib/api/route";
import { exportContactsCsv } from "@/lib/contacts/export";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "contacts:read" } }, ({ ctx }) => {
    const day = new Date().toISOString().slice(0, 10);
    return new Response(exportContactsCsv({ ctx }), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="contacts-${day}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  }),
});
