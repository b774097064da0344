import { createDocument, type ZodOpenApiPathsObject } from "zod-openapi";
import { APP_VERSION } from "@/lib/server/version";
import { errorBodySchema } from "./v1-common";
import { eventEnvelopeSchema } from "./v1-paths/events";
import { v1Domains } from "./v1-paths";

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;

/** Merges the domains' paths; two domains documenting the same operation is a mistake worth a crash. */
function mergePaths(parts: ZodOpenApiPathsObject[]): ZodOpenApiPathsObject {
  const merged: ZodOpenApiPathsObject = {};
  for (const part of parts) {
    for (const [path, item] of Object.entries(part)) {
      const target = (merged[path] ??= {});
      for (const method of METHODS) {
        if (!item[method]) continue;
        if (target[method]) throw new Error(`${method.toUpperCase()} ${path} is documented twice`);
        target[method] = item[method];
      }
    }
  }
  return merged;
}

const description = `The developer API of Chorus: conversations, messages, users, reports, configuration and webhooks of one business messaging number.

**Authentication.** Send \`Authorization: Bearer <token>\` on every route except \`POST /v1/auth/login\` and this document. Create API tokens in Settings → API tokens (or \`POST /v1/auth/tokens\`) with the scopes you need; each operation lists its scope in \`x-required-scopes\`. A request needs the scope **and** a role that allows it.

**Errors.** Every non-2xx answer has the body \`{"error": {"code", "message", "details"?}, "request_id"}\`.

**Pagination.** Lists take \`limit\` (1 to 100, default 50) and \`cursor\`, and answer \`{"data": [...], "pagination": {"next_cursor", "has_more"}}\`.

**Idempotency.** \`POST /v1/messages\`, \`POST /v1/webhooks\` and \`POST /v1/auth/tokens\` accept an \`Idempotency-Key\` header.

**Rate limits.** 600 requests per minute per token by default; see the \`RateLimit-*\` headers, and \`Retry-After\` on a 429. When the server holds more work than it can start within about 2 seconds it answers \`503\` with code \`overloaded\` and \`Retry-After\` before doing anything: retry after that many seconds.

**Browsers.** A request with \`Authorization: Bearer\` may come from any origin (CORS: \`Access-Control-Allow-Origin: *\`, preflights answered 204); credentials (cookies) are never allowed cross-origin.

**Webhooks.** Events are POSTed to your endpoints, signed with \`X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body>\` and the Standard Webhooks headers; see the webhooks of this document.`;

export function buildV1Document() {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Chorus API",
      version: APP_VERSION,
      description,
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: "/", description: "This Chorus server" }],
    security: [{ bearerAuth: [] }],
    tags: v1Domains.map((domain) => domain.tag),
    paths: mergePaths(v1Domains.map((domain) => domain.paths)),
    webhooks: mergePaths(v1Domains.flatMap((domain) => (domain.webhooks ? [domain.webhooks] : []))),
    components: {
      schemas: { Error: errorBodySchema, EventEnvelope: eventEnvelopeSchema },
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "An API token (scoped, 1 day to 1 year) or a session token (24 h, everything your role allows).",
        },
      },
    },
  });
}

let cached: ReturnType<typeof buildV1Document> | undefined;

export function v1Document() {
  cached ??= buildV1Document();
  return cached;
}
