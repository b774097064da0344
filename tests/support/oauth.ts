import { encode } from "next-auth/jwt";
import * as wellKnown from "@/app/.well-known/oauth-authorization-server/route";
import * as consentRoute from "@/app/oauth/consent/route";
import * as revokeRoute from "@/app/oauth/revoke/route";
import * as tokenRoute from "@/app/oauth/token/route";
import type { User } from "@/db/schema";
import { createSession } from "@/lib/auth/sessions";
import { getEnv } from "@/lib/platform/env";
import { systemContext } from "@/lib/server/context";

/** A fetch that serves the OAuth endpoints from their route handlers (what an OAuth library calls). */
export async function oauthFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const req = input instanceof Request ? input : new Request(input, init);
  const { pathname } = new URL(req.url);
  if (pathname === "/.well-known/oauth-authorization-server" && req.method === "GET") return wellKnown.GET();
  if (pathname === "/oauth/token") return req.method === "POST" ? tokenRoute.POST(req) : tokenRoute.GET();
  if (pathname === "/oauth/revoke") return req.method === "POST" ? revokeRoute.POST(req) : revokeRoute.GET();
  if (pathname === "/oauth/consent" && req.method === "POST") return consentRoute.POST(req);
  return new Response("not found", { status: 404 });
}

/** The browser's sign-in cookie for a user (a fresh session). */
export async function sessionCookie(user: Pick<User, "id" | "accountId" | "role">, { secondFactor = false } = {}) {
  const session = await createSession(systemContext().db, { user, secondFactor });
  const salt = "authjs.session-token";
  const value = await encode({ token: { sub: user.id, tid: session.id, acc: user.accountId }, secret: getEnv().AUTH_SECRET, salt });
  return { cookie: `${salt}=${value}`, sessionId: session.id };
}

/** Posts the consent page's form, as the browser does when the user clicks Allow or Deny. */
export async function postConsent({ cookie, consent, decision }: { cookie: string; consent: string; decision: "allow" | "deny" }) {
  return consentRoute.POST(
    new Request(`${getEnv().APP_URL}/oauth/consent`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: new URL(getEnv().APP_URL).origin },
      body: new URLSearchParams({ consent, decision }),
    }),
  );
}

/** Form-encoded POST to the token or revocation endpoint. */
export async function postForm(path: "/oauth/token" | "/oauth/revoke", form: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await oauthFetch(`${getEnv().APP_URL}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
