import { ApiReference } from "@scalar/nextjs-api-reference";
import { authenticateSessionCookie } from "@/lib/auth/authenticate";

/**
 * Shown until the reference viewer mounts (it replaces the content of #app): when its script
 * cannot be fetched, the reader still learns where the document is.
 */
function fallback(documentUrl: string) {
  return `<main style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5">
      <p role="status">Loading the API reference…</p>
      <p>If it does not appear, the reference viewer could not be loaded from cdn.jsdelivr.net.
        The OpenAPI document itself is at <a href="${documentUrl}">${documentUrl}</a>.</p>
      <p><a href="/docs">Back to API docs</a></p>
    </main>`;
}

/**
 * A Scalar API reference page for a served OpenAPI document. Like every page but /login and
 * /setup it needs a signed-in session; route handlers get no layout, so it checks itself.
 */
export function apiReferenceRoute({ page, documentUrl, title }: { page: string; documentUrl: string; title: string }) {
  const render = ApiReference({
    url: documentUrl,
    pageTitle: title,
    showDeveloperTools: "never",
    authentication: { preferredSecurityScheme: "bearerAuth" },
  });
  return async function GET(req: Request) {
    const session = await authenticateSessionCookie(req.headers.get("cookie"));
    if (!session) {
      return new Response(null, {
        status: 307,
        headers: { Location: `/login?next=${encodeURIComponent(page)}`, "Cache-Control": "no-store" },
      });
    }
    const html = (await render().text())
      .replace("<html>", '<html lang="en">')
      .replace('<div id="app"></div>', `<div id="app">${fallback(documentUrl)}</div>`);
    return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-store" } });
  };
}
