import "server-only";
import type { Executor } from "@/db";
import type { OauthApp } from "@/db/schema";
import { oauthJson, readForm } from "@/lib/oauth/endpoint";
import { authenticateClient, OAuthError, readClientCredentials } from "@/lib/oauth/token";
import { clientAddress } from "@/lib/platform/http/client-address";
import { requestInfoOf, withRequestInfo } from "@/lib/platform/http/request-info";
import { consumeRequest, rateLimitHeaders } from "@/lib/platform/rate-limit";
import { systemContext } from "@/lib/server/context";

/**
 * A client-authenticated, form-encoded OAuth endpoint (token, revocation): the caller's
 * address budget, the form, the client, and RFC 6749 error answers for every failure. The work
 * gets the app and the pool (`db`): there is no signed-in caller, the client is the caller.
 */
export function oauthEndpoint(work: (args: { app: OauthApp; form: URLSearchParams; db: Executor }) => Promise<Response>) {
  return async (req: Request): Promise<Response> => {
    const limit = await consumeRequest(`ip:${clientAddress(req)}`);
    const limitHeaders = rateLimitHeaders(limit);
    if (limit.limited) {
      return oauthJson({ error: "slow_down", error_description: `Too many requests. Retry in ${limit.resetSeconds} s.` }, 429, limitHeaders);
    }
    try {
      const form = await readForm(req);
      const authorization = req.headers.get("authorization");
      const { db } = systemContext();
      const app = await authenticateClient(db, readClientCredentials(authorization, form));
      return await withRequestInfo(requestInfoOf(req), () => work({ app, form, db }));
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
