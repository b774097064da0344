import { oauthEndpoint } from "@/lib/api/oauth-endpoint";
import { oauthMethodNotAllowed } from "@/lib/oauth/endpoint";
import { revokeOAuthToken } from "@/lib/oauth/token";

/** RFC 7009 token revocation: 200 whether or not the token was known. */
export const POST = oauthEndpoint(async ({ app, form, db }) => {
  await revokeOAuthToken(db, { app, form });
  return new Response(null, { status: 200, headers: { "Cache-Control": "no-store" } });
});

export const GET = oauthMethodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
export const OPTIONS = GET;
