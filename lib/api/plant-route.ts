import "server-only";
import { z } from "zod";
import type { AuthContext } from "@/lib/auth/tokens";
import { type RequestContext, verbContext } from "@/lib/server/context";
import type { PlantError } from "@/lib/plants/schemas";
import { ApiError, isDatabaseUnavailable, loggable, ServiceUnavailableError } from "@/lib/platform/errors";
import { JSON_BODY_LIMIT, parseJsonBody } from "@/lib/platform/http/read-body";
import { requestMethod } from "@/lib/platform/http/request-hook";
import { flatParams, type NextHandler, queryObject, refuseNulInBody, refuseNulInUrl, requestIdOf, toResponse } from "@/lib/platform/http/request";
import { type RateLimitState, rateLimitHeaders } from "@/lib/platform/rate-limit";
import { authenticateWithinLimit } from "./access";
import { defineRoute } from "./route";

type Options<B, Q, P> = {
  /** The OpenAPI document is public; every plant operation needs a token. */
  auth?: boolean;
  body?: B;
  query?: Q;
  params?: P;
};

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

type HandlerArgs<B, Q, P, A> = { req: Request; ctx: A; body: Infer<B>; query: Infer<Q>; params: Infer<P> };

/** The plant store's own error body: `{error: <status>, message}` (not the /v1 one). */
export function plantErrorResponse(status: number, message: string, headers: Record<string, string> = {}) {
  const body: PlantError = { error: status, message };
  return Response.json(body, { status, headers });
}

/** One sentence naming every invalid field, e.g. "name is required; tag must be a string". */
function describeIssues(error: z.ZodError): string {
  const messages = error.issues.map((issue) => {
    const field = issue.path.map(String).join(".");
    // Field messages already start with the field name; container-level ones do not.
    return field && !issue.message.startsWith(field.split(".")[0]) ? `${field}: ${issue.message}` : issue.message;
  });
  return [...new Set(messages)].join("; ");
}

function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ApiError(400, "validation_error", describeIssues(parsed.error));
  return parsed.data;
}

/**
 * The plant store wrapper: bearer token (or the browser session) of any kind, the per-token
 * rate limit shared with /v1, JSON body, query and path validation with zod, and the
 * plant store Error body for every failure, never with internals.
 */
export function plantRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
  O extends Options<B, Q, P> = Options<B, Q, P>,
>(
  options: O & Options<B, Q, P>,
  handler: (args: HandlerArgs<B, Q, P, O["auth"] extends false ? null : RequestContext>) => Promise<unknown> | unknown,
): NextHandler {
  return async (req, context) => {
    const requestId = requestIdOf(req);
    let limitState: RateLimitState | undefined;
    const finish = (response: Response) => {
      response.headers.set("X-Request-Id", requestId);
      if (limitState) {
        for (const [key, value] of Object.entries(rateLimitHeaders(limitState))) response.headers.set(key, value);
      }
      return response;
    };
    try {
      refuseNulInUrl(req);
      let ctx: AuthContext | null = null;
      if (options.auth !== false) ctx = await authenticateWithinLimit(req, (state) => (limitState = state));
      const url = new URL(req.url);
      const params = options.params ? validate(options.params, await flatParams(context)) : undefined;
      const query = options.query ? validate(options.query, queryObject(url)) : undefined;
      let body: unknown = undefined;
      if (options.body) {
        const read = await parseJsonBody(req, { limit: JSON_BODY_LIMIT, allowEmpty: false });
        refuseNulInBody(read.value);
        body = validate(options.body, read.value);
      }
      const result = await handler({
        req,
        // Null exactly when the route opted out of authentication, as the handler's type says.
        ctx: (ctx && verbContext(ctx)) as never,
        body: body as Infer<B>,
        query: query as Infer<Q>,
        params: params as Infer<P>,
      });
      return finish(toResponse(result));
    } catch (error) {
      if (error instanceof ApiError) return finish(plantErrorResponse(error.status, error.message, error.headers));
      if (isDatabaseUnavailable(error)) {
        const unavailable = new ServiceUnavailableError();
        return finish(plantErrorResponse(unavailable.status, unavailable.message, unavailable.headers));
      }
      // By name and code only: a raw error can carry the plant's text or query parameters.
      console.error(`[${requestId}] unhandled plant store error: ${loggable(error)}`);
      return finish(plantErrorResponse(500, "Something went wrong on our side. Try again later."));
    }
  };
}

/** Every method of a plant store route file: the given ones, and a 405 Error with Allow for the rest. */
export function definePlantRoute(handlers: Parameters<typeof defineRoute>[0]) {
  return defineRoute(handlers, {
    methodNotAllowed: (req, allow) =>
      plantErrorResponse(405, `${requestMethod(req)} is not allowed here. Allowed: ${allow}.`, { Allow: allow, "X-Request-Id": requestIdOf(req) }),
  });
}
