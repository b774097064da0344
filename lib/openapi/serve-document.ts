import { createHash } from "node:crypto";

type Served = { body: string; etag: string };
const served = new Map<string, Served>();

/**
 * An OpenAPI document as served: serialised once per process with a strong ETag (the
 * document only changes with a deploy), answered 304 when the client already holds it.
 */
export function serveDocument(req: Request, name: string, build: () => unknown): Response {
  let doc = served.get(name);
  if (!doc) {
    const body = JSON.stringify(build());
    doc = { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
    served.set(name, doc);
  }
  const headers = { "Cache-Control": "public, max-age=300", ETag: doc.etag };
  const held = req.headers.get("if-none-match");
  if (held && held.split(",").some((tag) => tag.trim().replace(/^W\//, "") === doc.etag || tag.trim() === "*")) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(doc.body, { headers: { ...headers, "Content-Type": "application/json" } });
}
