import { z } from "zod";
import type {
  ZodOpenApiOperationObject,
  ZodOpenApiPathsObject,
  ZodOpenApiRequestBodyObject,
  ZodOpenApiResponseObject,
  ZodOpenApiResponsesObject,
} from "zod-openapi";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";
import { paginationQuery } from "@/lib/platform/pagination";
import type { Scope } from "@/lib/auth/scopes";
import type { IdKind } from "@/lib/platform/ids";

/**
 * What a domain adds to the /v1 document: its tag, its paths and, for the events it
 * emits, its webhooks. `lib/openapi/v1-paths/index.ts` lists every domain.
 */
export type V1Domain = {
  tag: { name: string; description: string };
  paths: ZodOpenApiPathsObject;
  webhooks?: ZodOpenApiPathsObject;
};

// ---------------------------------------------------------------------------------------------
// Shared schemas

/** A timestamp as the API writes it (ISO 8601 UTC with milliseconds). */
export const timestamp = isoTimestamp;

/** A prefixed identifier such as `conv_01jd...`. */
export const idOf = prefixedId;

const errorDetailSchema = z
  .looseObject({
    path: z.string().meta({ description: "The field (dotted path), or `body`, `scope`, `token_type`.", example: "media.data" }),
    message: z.string().meta({ example: "is required" }),
    scope: z.string().optional().meta({ description: "The missing scope (403 only).", example: "users:write" }),
    code: z
      .string()
      .optional()
      .meta({
        description:
          "For a field that failed validation, what is wrong as a stable machine code (the zod issue code): `too_small`, `too_big`, `invalid_format`, `invalid_type`, `invalid_value`, `unrecognized_keys`, `not_multiple_of` or `custom` (a rule of its own, said in `message`). Use it with `params` to word the problem in your users' language; `message` stays English.",
        example: "too_big",
      }),
    params: z
      .looseObject({
        origin: z.string().optional().meta({ description: "What was measured: `string` (characters), `number`, `array` (items), `date`, `file`…", example: "string" }),
        minimum: z.number().optional().meta({ description: "The lower limit (`too_small`)." }),
        maximum: z.number().optional().meta({ description: "The upper limit (`too_big`).", example: 40 }),
        inclusive: z.boolean().optional().meta({ description: "Whether the limit itself is allowed." }),
        exact: z.boolean().optional().meta({ description: "The length must be exactly the limit." }),
        format: z.string().optional().meta({ description: "The format not matched (`invalid_format`): `email`, `url`, `regex`, `uuid`, `datetime`…", example: "url" }),
        expected: z.string().optional().meta({ description: "The type expected (`invalid_type`)." }),
        values: z
          .array(z.union([z.string(), z.number(), z.boolean(), z.null()]))
          .optional()
          .meta({ description: "The allowed values (`invalid_value`), at most 20." }),
        divisor: z.number().optional().meta({ description: "The number the value must be a multiple of (`not_multiple_of`)." }),
      })
      .optional()
      .meta({ description: "The facts of `code` that word it, when it has any.", example: { origin: "string", maximum: 40, inclusive: true } }),
  })
  .meta({ id: "ErrorDetail", description: "One problem with the request." });

/** The body of every non-2xx answer of /v1. */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: "A stable snake_case code, e.g. `validation_error`.", example: "validation_error" }),
      message: z.string().meta({ description: "A human sentence.", example: "to: must be 8 to 15 digits" }),
      details: z.array(errorDetailSchema).optional(),
    }),
    request_id: z.string().meta({ description: "The request id, as in the `X-Request-Id` header.", example: "req_01jd2x8k3f0m6q1v9w4r7t5y2z" }),
  })
  .meta({ id: "Error", description: "The error body of every non-2xx answer." });

export const paginationSchema = z
  .object({
    next_cursor: z.string().nullable().meta({ description: "Pass as `cursor` to get the next page; null on the last page." }),
    has_more: z.boolean(),
  })
  .meta({ id: "Pagination" });

/** A cursor-paginated list of `item`. */
export const page = (item: z.ZodType) => z.object({ data: z.array(item), pagination: paginationSchema });

/** The handlers' pagination query (`limit`, `cursor`). */
export { paginationQuery };

/** Path parameters `{id}` (and others) as plain strings; unknown ids answer 404. */
export const pathIds = <K extends string>(params: Record<K, IdKind>) =>
  z.object(Object.fromEntries(Object.entries(params).map(([name, kind]) => [name, idOf(kind as IdKind)])) as Record<K, z.ZodString>);

// ---------------------------------------------------------------------------------------------
// Headers and responses

const header = (id: string, description: string, example: string) => z.string().meta({ description, example, header: { id } });

const requestIdHeader = header("X-Request-Id", "The request id: echoed from the request when given, else generated.", "req_01jd2x8k3f0m6q1v9w4r7t5y2z");
// On every answer: the token's budget, the caller address's budget for requests without a
// token, or the sign-in budget (per address and email) on POST /v1/auth/login.
const rateLimitHeaders = {
  "RateLimit-Limit": header("RateLimit-Limit", "Requests allowed per minute for this token (or address, or sign-in).", "600"),
  "RateLimit-Remaining": header("RateLimit-Remaining", "Requests left in the current window.", "599"),
  "RateLimit-Reset": header("RateLimit-Reset", "Seconds until the window resets.", "42"),
};

/** Headers of every /v1 answer. */
const standardHeaders = z.object({ "X-Request-Id": requestIdHeader, ...rateLimitHeaders });

const errorResponse = (id: string, description: string, extraHeaders: Record<string, z.ZodType> = {}): ZodOpenApiResponseObject => ({
  id,
  description,
  headers: z.object({ "X-Request-Id": requestIdHeader, ...rateLimitHeaders, ...extraHeaders }),
  content: { "application/json": { schema: errorBodySchema } },
});

const errorResponses = {
  400: errorResponse(
    "BadRequest",
    "`invalid_json` (the body is not JSON, or nests deeper than 64 levels) or `validation_error` (`details` names each field; `path` for an address with a malformed `%`-escape or a NUL character, on every operation).",
  ),
  401: errorResponse("Unauthorized", "`unauthenticated` (no token) or `invalid_token` (malformed, bad signature, expired or revoked).", {
    "WWW-Authenticate": header("WWW-Authenticate", "The bearer challenge.", 'Bearer realm="chorus", error="invalid_token"'),
  }),
  403: errorResponse(
    "Forbidden",
    "`forbidden` (the token owner's current role does not allow the scope, or a write signed in by cookie came from another site) or `insufficient_scope` (the role allows it but the token lacks it, with the RFC 6750 challenge; `details` names the scope); when the account requires two-factor sign-in, `mfa_enrollment_required` (the user has not set it up: do so in the browser, Settings → Account) or `mfa_required` (this session was opened without a code: sign in again with one; or this API token or app grant was created by such a session: sign in with a code and create a new token or authorize the app again).",
    {
      "WWW-Authenticate": header("WWW-Authenticate", "On `insufficient_scope`: the bearer challenge naming the scope needed.", 'Bearer realm="chorus", error="insufficient_scope", scope="users:read"').optional(),
    },
  ),
  404: errorResponse("NotFound", "`not_found`: no such resource in your account (another account's ids answer the same)."),
  409: errorResponse("Conflict", "`conflict` or `invalid_transition`: the request conflicts with the current state (or with a record created at the same time), or an `Idempotency-Key` was reused with another body or is still in use; `contact_blocked`: a send to a blocked contact; `no_answer`: the answer assistant has nothing grounded to say; `assistant_off`: no language model is configured."),
  413: errorResponse(
    "PayloadTooLarge",
    "`payload_too_large`: the body is over the route's limit; `media_too_large` (routes that take media): the file is over the network's limit for its kind, named in words in `message` (images 5 MB, audio and video 16 MB, documents 100 MB, stickers 100 KB or 500 KB animated).",
  ),
  415: errorResponse(
    "UnsupportedMediaType",
    "`unsupported_media_type`: a body sent with a Content-Type other than `application/json` (or none), a compressed request body, or an unsupported file type.",
  ),
  429: errorResponse("TooManyRequests", "`rate_limited`: retry after `Retry-After` seconds.", {
    "Retry-After": header("Retry-After", "Seconds to wait before retrying.", "12"),
  }),
  // Answered by the HTTP server before any route runs: no rate budget is counted.
  431: {
    id: "RequestHeaderFieldsTooLarge",
    description: "`request_header_fields_too_large`: the request headers are over 16 KiB in all; answered before the request is routed.",
    headers: z.object({ "X-Request-Id": requestIdHeader }),
    content: { "application/json": { schema: errorBodySchema } },
  },
  500: errorResponse("InternalError", "`internal_error`: something failed on our side; no internals are returned."),
  503: {
    id: "ServiceUnavailable",
    description:
      "`service_unavailable`: the database cannot be reached right now (stopped, restarting); nothing was changed. `overloaded`: the server already holds more work than it can start within about 2 seconds, so the request was not started (nothing was done; answered by the HTTP server before any route runs, so no rate budget is counted). Either way, retry the same request after `Retry-After` seconds.",
    headers: z.object({ "X-Request-Id": requestIdHeader, "Retry-After": header("Retry-After", "Seconds to wait before retrying.", "2") }),
    content: { "application/json": { schema: errorBodySchema } },
  },
  502: errorResponse("BadGateway", "`network_error`: the messaging network refused the request or did not answer; `message` carries the network's own words; `assistant_unavailable`: the configured language model failed or did not answer in time."),
} as const;

type ErrorStatus = keyof typeof errorResponses;

// ---------------------------------------------------------------------------------------------
// Operations

type Access =
  /** No token: login, the OpenAPI document. */
  | { auth: "none" }
  /** Any valid token of the account. */
  | { auth: "any" }
  /** A session token (browser cookie or `POST /v1/auth/login`) of any role. */
  | { auth: "session" }
  | { scope: Scope };

type Success = {
  status: "200" | "201" | "202" | "204";
  description: string;
  /** JSON body schema; omit for 204. */
  schema?: z.ZodType;
  /** Other content (bytes, an event stream) instead of JSON. */
  content?: ZodOpenApiResponseObject["content"];
  headers?: Record<string, z.ZodType>;
};

/** The answer of a DELETE that removed the resource: 204, no body. */
export const deleted: Success = { status: "204", description: "Deleted." };

export type OperationSpec = {
  operationId: string;
  summary: string;
  description?: string;
  access: Access;
  query?: z.ZodObject;
  path?: z.ZodObject;
  headers?: z.ZodObject;
  body?: z.ZodType;
  /** A body that may be empty (`POST /v1/auth/refresh`, assign). */
  bodyOptional?: boolean;
  /** Body limit for the description: 64 KiB unless said otherwise. */
  bodyLimit?: "64 KiB" | "6 MiB" | "32 MiB";
  idempotent?: boolean;
  success: Success;
  /** Error statuses beyond those implied by access, body and parameters. */
  errors?: ErrorStatus[];
};

const idempotencyHeader = z
  .string()
  .min(1)
  .max(255)
  .optional()
  .meta({
    description: "Makes a retry safe: the same key and body within 24 h returns the first answer (with `Idempotent-Replayed: true`); the same key with another body is a 409.",
    example: "8e03978e-40d5-43e8-bc93-6894a57f9324",
  });

function accessText(access: Access): string {
  if ("scope" in access) return `Requires the \`${access.scope}\` scope (and a role that allows it).`;
  if (access.auth === "none") return "No token needed.";
  if (access.auth === "session") return "Requires a session token (browser sign-in or `POST /v1/auth/login`); API tokens get 403.";
  return "Any valid token of the account.";
}

/** An operation with its security, scopes, standard headers and the error answers that apply. */
function operation(tag: string, spec: OperationSpec): ZodOpenApiOperationObject {
  const statuses = new Set<ErrorStatus>(spec.errors ?? []);
  const authenticated = !("auth" in spec.access && spec.access.auth === "none");
  // Any address can hold a malformed escape or a NUL, and any request too large headers.
  statuses.add(400);
  statuses.add(431);
  // Requests without a token count against the caller's address.
  statuses.add(429);
  if (authenticated) statuses.add(401);
  // Any credential can be refused by the account's two-factor rule; scope and role, a session-only route, or a write signed in by cookie from another site refuse more.
  if (authenticated) statuses.add(403);
  if (spec.body) {
    statuses.add(400);
    statuses.add(413);
    statuses.add(415);
  }
  if (spec.query) statuses.add(400);
  if (spec.path) statuses.add(404);
  if (spec.idempotent) statuses.add(409);
  statuses.add(500);
  // Any request may find the database unreachable, or be turned away while the server is overloaded.
  statuses.add(503);

  const responses: ZodOpenApiResponsesObject = {
    [spec.success.status]: {
      description: spec.success.description,
      headers: z.object({
        ...standardHeaders.shape,
        ...(spec.idempotent
          ? { "Idempotent-Replayed": z.literal("true").optional().meta({ description: "Present when this is the stored answer of an earlier request with the same key." }) }
          : {}),
        ...spec.success.headers,
      }),
      ...(spec.success.schema
        ? { content: { "application/json": { schema: spec.success.schema } } }
        : spec.success.content
          ? { content: spec.success.content }
          : {}),
    },
  };
  for (const status of [...statuses].sort()) responses[String(status) as `${ErrorStatus}`] = errorResponses[status];

  const headerParams = spec.idempotent
    ? z.object({ ...(spec.headers?.shape ?? {}), "Idempotency-Key": idempotencyHeader })
    : spec.headers;
  const requestBody: ZodOpenApiRequestBodyObject | undefined = spec.body
    ? {
        required: !spec.bodyOptional,
        description: `JSON, at most ${spec.bodyLimit ?? "64 KiB"}.`,
        content: { "application/json": { schema: spec.body } },
      }
    : undefined;

  return {
    operationId: spec.operationId,
    tags: [tag],
    summary: spec.summary,
    description: [spec.description, accessText(spec.access)].filter(Boolean).join("\n\n"),
    "x-required-scopes": "scope" in spec.access ? [spec.access.scope] : [],
    ...(authenticated ? {} : { security: [] }),
    ...(spec.query || spec.path || headerParams
      ? {
          requestParams: {
            ...(spec.query ? { query: spec.query } : {}),
            ...(spec.path ? { path: spec.path } : {}),
            ...(headerParams ? { header: headerParams } : {}),
          },
        }
      : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/** Binds `operation` to a domain's tag. */
export const operationsFor = (tag: string) => (spec: OperationSpec) => operation(tag, spec);
