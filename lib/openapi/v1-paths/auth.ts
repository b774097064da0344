import { createdTokenOutput, createTokenInput, loginInput, loginOutput, refreshInput, refreshOutput, tokenInfoOutput, tokenOutput } from "@/lib/auth/schemas";
import { operationsFor, page, paginationQuery, pathIds, type V1Domain } from "../v1-common";

const tag = { name: "Authentication", description: "Sign in, API tokens, verification and renewal." };
const op = operationsFor(tag.name);

export const authDomain: V1Domain = {
  tag,
  paths: {
    "/v1/auth/login": {
      post: op({
        operationId: "login",
        summary: "Sign in with email and password",
        description: "Returns a 24 h session token for apps and command-line tools. Wrong credentials answer the same 401 whether the email exists or not. At most 10 attempts per minute per address and per email. With two-factor sign-in on, a correct password without `otp` is a 401 `mfa_required`; a wrong or reused code is a 401 `invalid_otp`. When the account requires two-factor sign-in and the user has not set it up, the answer is a 403 `mfa_enrollment_required` (set it up in the browser, Settings → Account).",
        access: { auth: "none" },
        body: loginInput,
        success: { status: "200", description: "Signed in.", schema: loginOutput },
        errors: [401, 403, 429],
      }),
    },
    "/v1/auth/tokens": {
      get: op({
        operationId: "listApiTokens",
        summary: "List API tokens",
        description: "Your API tokens, or every API token of the account for an administrator; newest first. Token strings are never returned again.",
        access: { auth: "any" },
        query: paginationQuery,
        success: { status: "200", description: "A page of tokens.", schema: page(tokenOutput.meta({ id: "ApiToken" })) },
      }),
      post: op({
        operationId: "createApiToken",
        summary: "Create an API token",
        description: "`expires_at` lies between 1 day and 1 year from now; the permissions must lie within your role (403 otherwise). The token string appears only in this answer.",
        access: { auth: "session" },
        body: createTokenInput,
        idempotent: true,
        success: { status: "201", description: "The token, with its string.", schema: createdTokenOutput.meta({ id: "CreatedApiToken" }) },
      }),
    },
    "/v1/auth/tokens/{id}": {
      delete: op({
        operationId: "revokeApiToken",
        summary: "Revoke an API token",
        description: "The token stops working at once. With a session, agents may revoke their own tokens and administrators any of the account's; an API token may revoke only itself (another id is a 403).",
        access: { auth: "any" },
        path: pathIds({ id: "token" }),
        success: { status: "204", description: "Revoked." },
        errors: [403],
      }),
    },
    "/v1/auth/verify": {
      get: op({
        operationId: "verifyToken",
        summary: "Check the bearer token",
        access: { auth: "any" },
        success: { status: "200", description: "The token is valid.", schema: tokenInfoOutput },
      }),
    },
    "/v1/auth/refresh": {
      post: op({
        operationId: "refreshToken",
        summary: "Renew the bearer token",
        description: "An API token is replaced by a new one with the same permissions and lifetime length starting now (the old one is revoked, so of two refreshes of the same API token only one succeeds, the other is a 401); a session token gets a fresh 24 h token. An OAuth app's access token is a 403: apps renew with their refresh token at `POST /oauth/token`. Send an empty body or `{}`.",
        access: { auth: "any" },
        body: refreshInput,
        bodyOptional: true,
        success: { status: "200", description: "The new token.", schema: refreshOutput },
        errors: [403],
      }),
    },
  },
};
