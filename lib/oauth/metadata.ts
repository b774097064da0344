import "server-only";
import { getEnv } from "@/lib/platform/env";
import { scopes } from "@/lib/auth/scopes";

/** The authorization server's issuer identifier: the app's public URL (RFC 8414). */
export function oauthIssuer(): string {
  return getEnv().APP_URL;
}

/** `GET /.well-known/oauth-authorization-server` (RFC 8414). */
export function authorizationServerMetadata() {
  const issuer = oauthIssuer();
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    scopes_supported: [...scopes],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${issuer}/docs`,
  };
}
