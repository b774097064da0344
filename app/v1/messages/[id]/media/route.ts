import { apiRoute, defineRoute } from "@/lib/api/route";
import { isAllowedMediaType, isInlineMediaType, OCTET_STREAM } from "@/lib/messages/inbound-media-type";
import { getMessageMedia } from "@/lib/messages/messages";

/** RFC 6266: an ASCII fallback plus the exact UTF-8 name. */
function contentDisposition(kind: "inline" | "attachment", filename: string | null) {
  if (!filename) return kind;
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "messages:read" } }, async ({ ctx, params }) => {
    const file = await getMessageMedia({ ctx, id: params.id });
    // Files stored before types were read from the bytes may carry anything: only the
    // allow-list is served as itself, and only pictures, audio and video are shown in place.
    const mimeType = isAllowedMediaType(file.mimeType) ? file.mimeType : OCTET_STREAM;
    return new Response(new Uint8Array(file.bytes), {
      headers: {
        "Content-Type": mimeType,
        "Content-Length": String(file.bytes.length),
        "Content-Disposition": contentDisposition(isInlineMediaType(mimeType) ? "inline" : "attachment", file.filename),
        "X-Content-Type-Options": "nosniff",
        // Even opened directly, the file runs no script and loads nothing.
        "Content-Security-Policy": "sandbox; default-src 'none'",
        "Cache-Control": "private, max-age=3600",
      },
    });
  }),
});
