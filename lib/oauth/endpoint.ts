import "server-only";
import { consumeRequest, rateLimitHeaders } from "@/lib/platform/rate-limit";
import { clientAddress } from "@/lib/platform/http/client-address";
import { readBody } from "@/lib/platform/http/read-body";
import { withRequestInfo, requestInfoOf } from "@/lib/platform/http/request-info";
import { authenticateClient, OAuthError, readClientCredentials } from "./token";
import type { OauthApp } from "@/db/schema";
import { parseFormBody } from "./parameters";

const FORM_LIMIT = 64 * 1024;
// Answers carrying tokens must never be stored by a cache (RFC 6749 section 5.1).
const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

export function oauthJson(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

/** A form-encoded body (64 KiB at most), strictly decoded, no parameter repeated; else OAuthError invalid_request. */
export async function readForm(req: Request): Promise<URLSearchParams> {
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(req.headers.get("content-type") ?? "")) {
    throw new OAuthError("invalid_request", "Send the parameters form-encoded (Content-Type: application/x-www-form-urlencoded).");
  }
  const bytes = await readBody(req, FORM_LIMIT, () => new OAuthError("invalid_request", "The request body is too large."));
  const parsed = parseFormBody(bytes);
  if (!parsed.ok) throw new OAuthError("invalid_request", parsed.problem);
  const form = parsed.params;
  for (const key of new Set(form.keys())) {
    if (form.getAll(key).length > 1) throw new OAuthError("invalid_request", `${key} is repeated.`);
  }
  return form;
}

/**
 * A client-authenticated, form-encoded OAuth endpoint (token, revocation): the caller's
 * address budget, the form, the client, and RFC 6749 error answers for every failure.
 */
export function oauthEndpoint(work: (args: { app: OauthApp; form: URLSearchParams }) => Promise<Response>) {
  return async (req: Request): Promise<Response> => {
    const limit = await consumeRequest(`ip:${clientAddress(req)}`);
    const limitHeaders = rateLimitHeaders(limit);
    if (limit.limited) {
      return oauthJson({ error: "slow_down", error_description: `Too many requests. Retry in ${limit.resetSeconds} s.` }, 429, limitHeaders);
    }
    try {
      const form = await readForm(req);
      const authorization = req.headers.get("authorization");
      const app = await authenticateClient(readClientCredentials(authorization, form));
      return await withRequestInfo(requestInfoOf(req), () => work({ app, form }));
    } catch (error) {
      if (!(error instanceof OAuthError)) {
        console.error("oauth endpoint failed", error instanceof Error ? error.name : "error");
        return oauthJson({ error: "server_error", error_description: "Something went wrong on our side. Try again later." }, 500, limitHeaders);
      }
      const headers: Record<string, string> = { ...limitHeaders };
      if (error.status === 401) headers["WWW-Authenticate"] = 'Basic realm="chorus"';
      return oauthJson({ error: error.error, error_description: error.description }, error.status, headers);
    }
  };
}

/** The 405 of an OAuth endpoint for other methods. */
export function oauthMethodNotAllowed(allow: string) {
  return async () => oauthJson({ error: "invalid_request", error_description: `Use ${allow}.` }, 405, { Allow: allow });
}
