import { oauthEndpoint } from "@/lib/api/oauth-endpoint";
import { oauthJson, oauthMethodNotAllowed } from "@/lib/oauth/endpoint";
import { exchangeCode, exchangeRefreshToken, OAuthError } from "@/lib/oauth/token";

/** RFC 6749 token endpoint: authorization_code (with PKCE) and refresh_token (rotating). */
export const POST = oauthEndpoint(async ({ app, form, db }) => {
  const grantType = form.get("grant_type");
  if (!grantType) throw new OAuthError("invalid_request", "grant_type is required.");
  if (grantType === "authorization_code") return oauthJson(await exchangeCode(db, { app, form }));
  if (grantType === "refresh_token") return oauthJson(await exchangeRefreshToken(db, { app, form }));
  throw new OAuthError("unsupported_grant_type", "grant_type must be authorization_code or refresh_token.");
});

export const GET = oauthMethodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
export const OPTIONS = GET;
