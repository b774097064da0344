import { apiRoute, defineRoute } from "@/lib/api/route";
import { getDocumentFile } from "@/lib/profile/documents";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" } }, async ({ ctx, params }) => {
    const file = await getDocumentFile({ ctx, id: params.id });
    const asciiName = file.filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
    return new Response(new Uint8Array(file.bytes), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Length": String(file.bytes.length),
        "Content-Disposition": `inline; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
        "X-Content-Type-Options": "nosniff",
      },
    });
  }),
});
