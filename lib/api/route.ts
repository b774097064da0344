import { z } from "zod";
import { authenticateRequest } from "@/lib/auth/authenticate";
import type { AuthContext } from "@/lib/auth/tokens";
import { roleAllows, type Scope } from "@/lib/auth/scopes";
import { ApiError, ConflictError, ForbiddenError, type ErrorDetail, loggable, sqlState } from "@/lib/errors";
import { requestInfoOf, withRequestInfo } from "@/lib/http/request-info";

export { loggable };
import { newId } from "@/lib/ids";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  hashRequest,
  parseIdempotencyKey,
  releaseIdempotencyKey,
} from "./idempotency";
import { consumeRequest, type RateLimitState, rateLimitHeaders } from "./rate-limit";
import { clientAddress } from "./client-address";
import { getEnv } from "@/lib/env";
import { requestMethod } from "@/lib/http/request-hook";

export { clientAddress };

export const JSON_BODY_LIMIT = 64 * 1024;
export const LARGE_BODY_LIMIT = 32 * 1024 * 1024;

type RouteParams = { params: Promise<Record<string, string | string[]>> };
type NextHandler = (req: Request, context: RouteParams) => Promise<Response>;

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

export type IdempotentSecrets = {
  withoutSecret: (body: Record<string, unknown>, ctx: AuthContext) => Record<string, unknown>;
  restoreSecret: (body: Record<string, unknown>, ctx: AuthContext) => Promise<Record<string, unknown>>;
};

export const omit = (body: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(body).filter(([k]) => k !== key));

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

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export function errorBody(requestId: string, code: string, message: string, details?: ErrorDetail[]) {
  return { error: { code, message, ...(details && details.length ? { details } : {}) }, request_id: requestId };
}

export function errorResponse(
  requestId: string,
  status: number,
  code: string,
  message: string,
  details?: ErrorDetail[],
  headers: Record<string, string> = {},
) {
  return Response.json(errorBody(requestId, code, message, details), {
    status,
    headers: { "X-Request-Id": requestId, ...headers },
  });
}

export function zodDetails(error: z.ZodError, prefix: string[] = []): ErrorDetail[] {
  return error.issues.map((issue) => ({
    path: [...prefix, ...issue.path.map(String)].join(".") || "body",
    message: issue.message,
  }));
}

/** The path of the first string holding a NUL character (PostgreSQL text cannot store one). */
export function findNul(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path.join(".") || "body" : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      const found = key.includes("\u0000") ? [...path, key.replace(/\u0000/g, "\\u0000")].join(".") : findNul(child, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

const nulError = (path: string) => new ApiError(400, "validation_error", `${path}: must not contain a NUL character`, [{ path, message: "must not contain a NUL character" }]);

/** A NUL in a path segment or a query value is a 400 naming it, before anything else runs. */
export function refuseNulInUrl(req: Request) {
  const url = new URL(req.url);
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    throw new ApiError(400, "validation_error", "path: contains a malformed percent-escape", [{ path: "path", message: "contains a malformed percent-escape" }]);
  }
  if (pathname.includes("\u0000")) throw nulError("path");
  for (const [key, value] of url.searchParams) {
    if (key.includes("\u0000") || value.includes("\u0000")) throw nulError(key.replace(/\u0000/g, "") || "query");
  }
}

/** A NUL anywhere in a JSON body is a 400 naming the field. */
export function refuseNulInBody(value: unknown) {
  const path = findNul(value);
  if (path) throw nulError(path);
}

function validationError(details: ErrorDetail[]) {
  const first = details[0];
  return new ApiError(
    400,
    "validation_error",
    first ? `${first.path}: ${first.message}` : "The request is not valid.",
    details,
  );
}

export function requestIdOf(req: Request): string {
  const given = req.headers.get("x-request-id");
  return given && REQUEST_ID.test(given) ? given : newId("request");
}

/** Reads the body up to `limit` bytes; a larger body is a 413 without reading the rest. */
async function readBody(req: Request, limit: number): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  const tooLarge = () =>
    new ApiError(413, "payload_too_large", `The request body is larger than ${limit} bytes.`);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError(400, "invalid_json", "The request body is not valid UTF-8.");
  }
}

/** Reads and parses a JSON body; every failure is an ApiError (400, 413 or 415). */
export async function parseJsonBody(req: Request, options: { limit: number; allowEmpty: boolean }) {
  const encoding = req.headers.get("content-encoding");
  if (encoding && encoding.toLowerCase() !== "identity") {
    throw new ApiError(415, "unsupported_media_type", `Content-Encoding "${encoding}" is not supported.`);
  }
  const raw = await readBody(req, options.limit);
  if (raw.trim() === "" && options.allowEmpty) return { raw, value: {} };
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType)) {
    throw new ApiError(400, "invalid_json", "Send the body as JSON with Content-Type: application/json.");
  }
  try {
    return { raw, value: JSON.parse(raw) as unknown };
  } catch {
    throw new ApiError(400, "invalid_json", "The request body is not valid JSON.");
  }
}

function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of url.searchParams) out[key] = value;
  return out;
}

async function flatParams(context: RouteParams | undefined): Promise<Record<string, string>> {
  const raw = (await context?.params) ?? {};
  return Object.fromEntries(
    Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]),
  );
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [key, value] of Object.entries(headers)) {
    if (!response.headers.has(key)) response.headers.set(key, value);
  }
  return response;
}

function toResponse(result: unknown): Response {
  if (result instanceof Response) return result;
  if (result === undefined || result === null) return new Response(null, { status: 204 });
  return Response.json(result);
}

// unique_violation: a row created at the same time by another request won the race.
const UNIQUE_VIOLATION = "23505";
// character_not_in_repertoire / untranslatable_character: a NUL (or broken text) a check missed.
const UNSTORABLE_TEXT = new Set(["22021", "22P05"]);

function mapError(error: unknown, requestId: string): Response {
  if (error instanceof ApiError) {
    return errorResponse(requestId, error.status, error.code, error.message, error.details, error.headers);
  }
  if (error instanceof z.ZodError) {
    const e = validationError(zodDetails(error));
    return errorResponse(requestId, 400, e.code, e.message, e.details);
  }
  const state = sqlState(error);
  if (state && UNSTORABLE_TEXT.has(state)) {
    return errorResponse(requestId, 400, "validation_error", "The request holds a character that cannot be stored (such as NUL).", [
      { path: "body", message: "must not contain a NUL character" },
    ]);
  }
  if (state === UNIQUE_VIOLATION) {
    console.warn(`[${requestId}] conflicting write: ${loggable(error)}`);
    return errorResponse(requestId, 409, "conflict", "The request conflicts with a record created at the same time. Check the current state and retry.");
  }
  // The detail goes to the log with the request id; the client gets neither stack nor SQL.
  console.error(`[${requestId}] unhandled error: ${loggable(error)}`);
  return errorResponse(requestId, 500, "internal_error", "Something went wrong on our side. Try again later.");
}

/**
 * The /v1 wrapper: request id, authentication, rate limit, scope and role, body and
 * query validation, idempotency, and the SPEC error body for every failure.
 */
export function apiRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  O extends Options<B, Q> = Options<B, Q>,
>(
  options: O & Options<B, Q>,
  handler: (
    args: HandlerArgs<Infer<B>, Infer<Q>, O["access"] extends { auth: "none" } ? AuthContext | null : AuthContext>,
  ) => Promise<unknown> | unknown,
): NextHandler {
  const secrets = typeof options.idempotent === "object" ? options.idempotent : undefined;
  return async (req, context) => {
    const requestId = requestIdOf(req);
    let limitState: RateLimitState | undefined;
    let claim: Parameters<typeof completeIdempotencyKey>[0] | undefined;
    try {
      refuseNulInUrl(req);
      let ctx: AuthContext | null = null;
      if (options.access.auth === "none") {
        if (!options.ownRateLimit) limitState = await spendAddressBudget(req);
      } else {
        ctx = await authenticateWithinLimit(req, (state) => (limitState = state));
        if (options.sessionOnly && ctx.token.kind !== "session") {
          throw new ForbiddenError("Only a signed-in session can do this; API tokens cannot.", [
            { path: "token_type", message: "requires a session token" },
          ]);
        }
        if (options.access.auth === "scope") authorize(ctx, options.access.scope);
      }

      const url = new URL(req.url);
      const params = await flatParams(context);
      let query: unknown = undefined;
      if (options.query) {
        const parsed = options.query.safeParse(queryObject(url));
        if (!parsed.success) throw validationError(zodDetails(parsed.error));
        query = parsed.data;
      }

      let body: unknown = undefined;
      let raw = "";
      if (options.body) {
        const read = await parseJsonBody(req, {
          limit: options.maxBodyBytes ?? JSON_BODY_LIMIT,
          allowEmpty: options.allowEmptyBody ?? false,
        });
        raw = read.raw;
        refuseNulInBody(read.value);
        const parsed = options.body.safeParse(read.value);
        if (!parsed.success) throw validationError(zodDetails(parsed.error));
        body = parsed.data;
      }

      if (options.idempotent && ctx) {
        const key = parseIdempotencyKey(req.headers.get("idempotency-key"));
        if (key) {
          const candidate = {
            accountId: ctx.accountId,
            route: `${req.method} ${url.pathname}`,
            key,
            requestHash: hashRequest(raw),
            userId: ctx.user.id,
          };
          // A refused claim (another body, or still in flight) belongs to another request:
          // its row must keep that request's answer, so only a won claim is completed here.
          const stored = await claimIdempotencyKey(candidate);
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
          handler({
            req,
            ctx: ctx as AuthContext,
            body: body as Infer<B>,
            query: query as Infer<Q>,
            params,
            requestId,
            reportRateLimit: (state) => (limitState = state),
          }),
        ),
      );
      if (claim) {
        const text = await response.clone().text();
        const storable = secrets && response.ok && text ? JSON.stringify(secrets.withoutSecret(JSON.parse(text), ctx as AuthContext)) : text;
        await completeIdempotencyKey(claim, { status: response.status, body: storable });
        claim = undefined;
      }
      return finish(response);
    } catch (error) {
      const response = mapError(error, requestId);
      if (!limitState && options.ownRateLimit) limitState = await options.ownRateLimit.peek(req).catch(() => undefined);
      if (claim) {
        // Client errors are final answers worth replaying; server errors may be retried.
        if (response.status >= 500) await releaseIdempotencyKey(claim).catch(() => {});
        else await completeIdempotencyKey(claim, { status: response.status, body: await response.clone().text() }).catch(() => {});
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

/** A 429 carrying the exhausted budget's RateLimit headers and Retry-After. */
export function rateLimited(state: RateLimitState) {
  return new ApiError(429, "rate_limited", `Too many requests. Retry in ${state.resetSeconds} s.`, undefined, rateLimitHeaders(state));
}

/** Spends one unit of the caller's address budget (requests made without a valid token). */
async function spendAddressBudget(req: Request): Promise<RateLimitState> {
  const state = await consumeRequest(`ip:${clientAddress(req)}`);
  if (state.limited) throw rateLimited(state);
  return state;
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
    return withHeaders(mapError(error, requestId), { "X-Request-Id": requestId });
  }
}

/**
 * Authenticates the request and spends one unit of its rate budget: the token's, or the
 * caller's address when authentication fails (so guessing tokens is throttled too).
 * `onLimit` receives the budget either way, for the RateLimit headers.
 */
export async function authenticateWithinLimit(req: Request, onLimit: (state: RateLimitState) => void): Promise<AuthContext> {
  let ctx: AuthContext;
  try {
    ctx = await authenticateRequest(req);
  } catch (error) {
    const state = await consumeRequest(`ip:${clientAddress(req)}`);
    onLimit(state);
    if (state.limited) throw rateLimited(state);
    throw error;
  }
  const state = await consumeRequest(`token:${ctx.token.id}`);
  onLimit(state);
  if (state.limited) throw rateLimited(state);
  if (ctx.via === "cookie") refuseCrossSiteWrite(req);
  return ctx;
}

/**
 * A browser sends its sign-in cookie along with requests another site starts, so a write made
 * with the cookie (every method but GET and HEAD) must come from this app's own pages: a
 * foreign `Origin`, or `Sec-Fetch-Site: cross-site`, is a 403. Bearer tokens are never sent
 * by a browser on its own, so they need no such check.
 */
export function refuseCrossSiteWrite(req: Request) {
  if (req.method === "GET" || req.method === "HEAD") return;
  const refuse = (why: string) => {
    throw new ForbiddenError(`Cross-site request refused: ${why}. Write requests signed in by cookie must come from this app's pages.`, [
      { path: "origin", message: why },
    ]);
  };
  if (req.headers.get("sec-fetch-site")?.toLowerCase() === "cross-site") refuse("Sec-Fetch-Site is cross-site");
  const origin = req.headers.get("origin");
  if (origin === null) return;
  const own = new Set([new URL(getEnv().APP_URL).origin, new URL(req.url).origin]);
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  if (host) {
    const proto = req.headers.get("x-forwarded-proto") ?? new URL(req.url).protocol.replace(":", "");
    own.add(`${proto}://${host}`);
  }
  if (!own.has(origin)) refuse(`Origin ${origin.slice(0, 100)} is not this app`);
}

/**
 * The owner's current role must allow the scope (a demoted user loses admin powers on the
 * tokens they hold: forbidden), and then the token must hold it (insufficient_scope).
 */
export function authorize(ctx: AuthContext, scope: Scope) {
  if (!roleAllows(ctx.user.role, scope)) {
    throw new ForbiddenError(`The ${ctx.user.role} role does not allow ${scope}.`, [
      { path: "scope", message: `role ${ctx.user.role} does not allow ${scope}`, scope },
    ]);
  }
  if (!ctx.token.scopes.includes(scope)) {
    throw new ApiError(403, "insufficient_scope", `This token lacks the ${scope} scope.`, [
      { path: "scope", message: `requires ${scope}`, scope },
    ]);
  }
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type Method = Exclude<(typeof METHODS)[number], "OPTIONS">;

/**
 * Exports every method for a route file: the given ones, and a 405 with an Allow header for
 * the rest (the SPEC error body, or the body `methodNotAllowed` builds for another API).
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

export const json = (data: unknown, init?: ResponseInit) => Response.json(data, init);
export const created = (data: unknown) => Response.json(data, { status: 201 });
export const noContent = () => new Response(null, { status: 204 });
