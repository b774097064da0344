import { ApiReference } from "@scalar/nextjs-api-reference";
import { authenticateSessionCookie } from "@/lib/auth/authenticate";

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
    const response = render();
    response.headers.set("Content-Type", "text/html; charset=utf-8");
    response.headers.set("Cache-Control", "private, no-store");
    return response;
  };
}
