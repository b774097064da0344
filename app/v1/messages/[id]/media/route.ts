import { apiRoute, defineRoute } from "@/lib/api/route";
import { getMessageMedia } from "@/lib/messages/messages";

/** RFC 6266: an ASCII fallback plus the exact UTF-8 name. */
function contentDisposition(kind: "inline" | "attachment", filename: string | null) {
  if (!filename) return kind;
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export const { GET, POST, PUT, PATCH, DELETE } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "messages:read" } }, async ({ ctx, params }) => {
    const file = await getMessageMedia({ ctx, id: params.id });
    return new Response(new Uint8Array(file.bytes), {
      headers: {
        "Content-Type": file.mimeType,
        "Content-Length": String(file.bytes.length),
        // Documents download; pictures, audio and video can be shown in place.
        "Content-Disposition": contentDisposition(file.type === "document" ? "attachment" : "inline", file.filename),
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "private, max-age=3600",
      },
    });
  }),
});
