import { z } from "zod";
import type { Scope } from "@/lib/auth/scopes";
import { type RequestContext, systemContext, verbContext } from "@/lib/server/context";
import { ConflictError, ForbiddenError, zodDetails } from "@/lib/platform/errors";
import { listScopeOf, withListScope } from "@/lib/platform/cursor";
import { JSON_BODY_LIMIT, parseJsonBody } from "@/lib/platform/http/read-body";
import { requestMethod } from "@/lib/platform/http/request-hook";
import { requestInfoOf, withRequestInfo } from "@/lib/platform/http/request-info";
import { flatParams, type NextHandler, queryObject, refuseNulInBody, refuseNulInUrl, requestIdOf, toResponse, withHeaders } from "@/lib/platform/http/request";
import { type RateLimitState, rateLimitHeaders } from "@/lib/platform/rate-limit";
import { authenticateWithinLimit, authorize, spendAddressBudget } from "./access";
import { bodyError, errorResponse, errorToResponse, validationError } from "./errors";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  hashRequest,
  parseIdempotencyKey,
  releaseIdempotencyKey,
} from "./idempotency";

type Access =
  /** No token needed (login, the OpenAPI document). */
  | { auth: "none" }
  /** Any valid token of the account. */
  | { auth: "any" }
  | { auth: "scope"; scope: Scope };

type Options<B extends z.ZodType | undefined, Q extends z.ZodType | undefined> = {
  access: Access;
  body?: B;
  query?: Q;
  /** Only a session (browser cookie or session bearer) may call this route. */
  sessionOnly?: boolean;
  maxBodyBytes?: number;
  /**
   * Honour the Idempotency-Key header. A route whose answer carries a secret names how to
   * store the answer without it and how to put it back on a replay, so no secret is kept.
   */
  idempotent?: boolean | IdempotentSecrets;
  /** Accept an empty body as `{}` (refresh). */
  allowEmptyBody?: boolean;
  /**
   * For a route that needs no token: the handler counts the request against its own budget
   * and reports it with `reportRateLimit` (sign-in), instead of the caller's address budget.
   * `peek` reads that budget without spending it, for answers given before the handler runs.
   */
  ownRateLimit?: { peek: (req: Request) => Promise<RateLimitState> };
};

type IdempotentSecrets = {
  withoutSecret: (body: Record<string, unknown>, ctx: RequestContext) => Record<string, unknown>;
  restoreSecret: (body: Record<string, unknown>, ctx: RequestContext) => Promise<Record<string, unknown>>;
};

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

export type HandlerArgs<B, Q, A> = {
  req: Request;
  ctx: A;
  body: B;
  query: Q;
  params: Record<string, string>;
  requestId: string;
  /** The budget this request was counted against, for the RateLimit headers (see `ownRateLimit`). */
  reportRateLimit: (state: RateLimitState) => void;
};

/**
 * The /v1 wrapper: request id, authentication, rate limit, scope and role, body and
 * query validation, idempotency, and the documented error body for every failure.
 */
export function apiRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  O extends Options<B, Q> = Options<B, Q>,
>(
  options: O & Options<B, Q>,
  handler: (
    args: HandlerArgs<Infer<B>, Infer<Q>, O["access"] extends { auth: "none" } ? RequestContext | null : RequestContext>,
  ) => Promise<unknown> | unknown,
): NextHandler {
  const secrets = typeof options.idempotent === "object" ? options.idempotent : undefined;
  return async (req, context) => {
    const requestId = requestIdOf(req);
    let limitState: RateLimitState | undefined;
    let claim: Parameters<typeof completeIdempotencyKey>[1] | undefined;
    // The pool, for the idempotency store; the handler gets it in its context.
    const { db } = systemContext();
    try {
      let ctx: RequestContext | null = null;
      if (options.access.auth === "none") {
        if (!options.ownRateLimit) limitState = await spendAddressBudget(req);
      } else {
        ctx = verbContext(await authenticateWithinLimit(req, (state) => (limitState = state)));
        if (options.sessionOnly && ctx.token.kind !== "session") {
          throw new ForbiddenError("Only a signed-in session can do this; API tokens cannot.", [
            { path: "token_type", message: "requires a session token" },
          ]);
        }
        if (options.access.auth === "scope") authorize(ctx, options.access.scope);
      }
      // After the request is counted, so that this 400 carries the rate budget like any answer.
      refuseNulInUrl(req);

      const url = new URL(req.url);
      const params = await flatParams(context);
      // Cursors read and handed out by this request belong to this list and these filters.
      const scope = listScopeOf(url);
      let query: unknown = undefined;
      if (options.query) {
        const schema = options.query;
        const parsed = withListScope(scope, () => schema.safeParse(queryObject(url)));
        if (!parsed.success) throw validationError(zodDetails(parsed.error));
        query = parsed.data;
      }

      let body: unknown = undefined;
      let sent: unknown = undefined;
      if (options.body) {
        const read = await parseJsonBody(req, {
          limit: options.maxBodyBytes ?? JSON_BODY_LIMIT,
          allowEmpty: options.allowEmptyBody ?? false,
        });
        sent = read.value;
        refuseNulInBody(read.value);
        const parsed = options.body.safeParse(read.value);
        if (!parsed.success) throw bodyError(parsed.error);
        body = parsed.data;
      }

      if (options.idempotent && ctx) {
        const key = parseIdempotencyKey(req.headers.get("idempotency-key"));
        if (key) {
          const candidate = {
            accountId: ctx.accountId,
            route: `${req.method} ${url.pathname}`,
            key,
            requestHash: hashRequest(sent),
            userId: ctx.user.id,
          };
          // A refused claim (another body, or still in flight) belongs to another request:
          // its row must keep that request's answer, so only a won claim is completed here.
          const stored = await claimIdempotencyKey(db, candidate);
          if (!stored) claim = candidate;
          else {
            // An answer carrying a secret (a token, a signing secret) is replayed to the user
            // who asked for it, never to a teammate who happens to reuse the key.
            if (secrets && stored.userId !== ctx.user.id) {
              throw new ConflictError("This Idempotency-Key was already used by another user of the account; choose a new key.");
            }
            const body =
              secrets && stored.status < 300 ? JSON.stringify(await secrets.restoreSecret(JSON.parse(stored.body), ctx)) : stored.body;
            return finish(
              new Response(body, {
                status: stored.status,
                headers: { "Content-Type": "application/json", "Idempotent-Replayed": "true" },
              }),
            );
          }
        }
      }

      const response = toResponse(
        // The caller's address and client travel with the request for the audit log.
        await withRequestInfo(requestInfoOf(req), () =>
          withListScope(scope, () =>
            handler({
              req,
              ctx: ctx as RequestContext,
              body: body as Infer<B>,
              query: query as Infer<Q>,
              params,
              requestId,
              reportRateLimit: (state) => (limitState = state),
            }),
          ),
        ),
      );
      if (claim) {
        const text = await response.clone().text();
        const storable = secrets && response.ok && text ? JSON.stringify(secrets.withoutSecret(JSON.parse(text), ctx as RequestContext)) : text;
        await completeIdempotencyKey(db, claim, { status: response.status, body: storable });
        claim = undefined;
      }
      return finish(response);
    } catch (error) {
      const response = errorToResponse(error, requestId);
      if (!limitState && options.ownRateLimit) limitState = await options.ownRateLimit.peek(req).catch(() => undefined);
      if (claim) {
        // Client errors are final answers worth replaying; server errors may be retried.
        if (response.status >= 500) await releaseIdempotencyKey(db, claim).catch(() => {});
        else await completeIdempotencyKey(db, claim, { status: response.status, body: await response.clone().text() }).catch(() => {});
      }
      return finish(response);
    }

    function finish(response: Response) {
      return withHeaders(response, {
        // API answers are per caller, and several carry a token or a secret: never stored
        // by a browser or a shared cache (a route may say otherwise, as media does).
        "Cache-Control": "no-store",
        "X-Request-Id": requestId,
        ...(limitState ? rateLimitHeaders(limitState) : {}),
      });
    }
  };
}

/**
 * An answer given without a handler (an unknown /v1 path, a method the route lacks), counted
 * against the caller's address budget like any request without a token.
 */
export async function answerWithoutHandler(req: Request, answer: (requestId: string) => Response): Promise<Response> {
  const requestId = requestIdOf(req);
  try {
    const state = await spendAddressBudget(req);
    return withHeaders(answer(requestId), { "X-Request-Id": requestId, ...rateLimitHeaders(state) });
  } catch (error) {
    return withHeaders(errorToResponse(error, requestId), { "X-Request-Id": requestId });
  }
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type Method = Exclude<(typeof METHODS)[number], "OPTIONS">;

/**
 * Exports every method for a route file: the given ones, and a 405 with an Allow header for
 * the rest (the documented error body, or the body `methodNotAllowed` builds for another API).
 */
export function defineRoute(
  handlers: Partial<Record<Method, NextHandler>>,
  { methodNotAllowed }: { methodNotAllowed?: (req: Request, allow: string) => Response } = {},
): Record<Method | "OPTIONS", NextHandler> {
  const allowed = METHODS.filter((m) => m !== "OPTIONS" && handlers[m]);
  const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : [])].join(", ");
  const notAllowed: NextHandler = async (req) =>
    methodNotAllowed
      ? methodNotAllowed(req, allow)
      : answerWithoutHandler(req, (requestId) =>
          errorResponse(requestId, 405, "method_not_allowed", `${requestMethod(req)} is not allowed here. Allowed: ${allow}.`, undefined, {
            Allow: allow,
          }),
        );
  return Object.fromEntries(METHODS.map((m) => [m, (m !== "OPTIONS" && handlers[m]) || notAllowed])) as Record<Method | "OPTIONS", NextHandler>;
}

/** A handler answering 405 with the error body and `Allow`, for route files not built with defineRoute. */
export function notServed(allow: string): NextHandler {
  return async (req) =>
    answerWithoutHandler(req, (requestId) =>
      errorResponse(requestId, 405, "method_not_allowed", `${requestMethod(req)} is not allowed here. Allowed: ${allow}.`, undefined, { Allow: allow }),
    );
}

export const created = (data: unknown) => Response.json(data, { status: 201 });
export const noContent = () => new Response(null, { status: 204 });
