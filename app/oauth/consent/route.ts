import { notServed } from "@/lib/api/route";
import { authenticateSessionCookie } from "@/lib/auth/authenticate";
import { getEnv } from "@/lib/platform/env";
import { systemContext, verbContext } from "@/lib/server/context";
import { withRequestInfo, requestInfoOf } from "@/lib/platform/http/request-info";
import { approveAuthorization, checkAuthorizeRequest, errorRedirect, readConsent } from "@/lib/oauth/authorize";
import { oauthJson, readForm } from "@/lib/oauth/endpoint";
import { OAuthError } from "@/lib/oauth/token";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (status: number, message: string) =>
  new Response(`<!doctype html><meta charset="utf-8"><title>Chorus</title><p>${escapeHtml(message)}</p><p><a href="/inbox">Back to Chorus</a></p>`, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });

const redirect = (location: string) => new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });

/** The consent page's Allow / Deny: back to the app with a code, or with error=access_denied. */
export async function POST(req: Request) {
  const origin = req.headers.get("origin");
  if (origin && origin !== new URL(getEnv().APP_URL).origin && origin !== new URL(req.url).origin) {
    return page(403, "This request did not come from the Chorus consent page.");
  }
  let form: URLSearchParams;
  try {
    form = await readForm(req);
  } catch (error) {
    if (error instanceof OAuthError) return oauthJson({ error: error.error, error_description: error.description }, 400);
    throw error;
  }
  const session = await authenticateSessionCookie(systemContext().db, req.headers.get("cookie"));
  if (!session) return page(401, "Your session has ended. Sign in and start again from the app.");
  if (session.secondFactor !== "ok") return page(403, "Your account requires two-factor sign-in. Sign in with your code and start again from the app.");
  const consent = await readConsent(form.get("consent") ?? "", session.user.id);
  if (!consent) return page(400, "This consent form has expired or is not yours. Start again from the app.");
  // Checked again: the app may have been deleted, or the user's role changed, since the page was shown.
  const check = await checkAuthorizeRequest(
    systemContext().db,
    {
      client_id: consent.clientId,
      redirect_uri: consent.redirectUri,
      response_type: "code",
      scope: consent.scopes.join(" "),
      state: consent.state ?? undefined,
      code_challenge: consent.codeChallenge,
      code_challenge_method: "S256",
    },
    { role: session.user.role, accountId: session.accountId },
  );
  if (!check.ok) return check.redirect ? redirect(check.redirect) : page(400, check.message);
  if (form.get("decision") !== "allow") {
    return redirect(errorRedirect(consent.redirectUri, "access_denied", "The user denied the request.", consent.state));
  }
  return redirect(await withRequestInfo(requestInfoOf(req), () => approveAuthorization({ ctx: verbContext(session), request: check.request })));
}

export const GET = notServed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
export const OPTIONS = GET;
