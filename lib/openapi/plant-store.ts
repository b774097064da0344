import { z } from "zod";
import { createDocument, type ZodOpenApiResponseObject } from "zod-openapi";
import {
  listPlantsQuery,
  newPlantSchema,
  PLANT_LIST_CAP,
  plantErrorSchema,
  plantIdParams,
  plantSchema,
} from "@/lib/plants/schemas";
import { webhookDeliveryDescription, webhookDeliveryHeaders } from "./webhook-headers";

const json = (schema: z.ZodType) => ({ "application/json": { schema } });

// The request id is on every answer; the rate budget is documented, not required: an answer
// given before the plant store's wrapper counts the request (an unknown path, a method the path
// does not serve, an address that cannot be read) carries none, and a 405 alone carries Allow.
const header = (id: string, description: string, example: string) => z.string().optional().meta({ description, example, header: { id } });
const requiredHeader = (id: string, description: string, example: string) => z.string().meta({ description, example, header: { id } });

/** Headers of the plant store's answers: the request id and the token's rate budget. */
const answerHeaders = {
  "X-Request-Id": requiredHeader("X-Request-Id", "The request id: echoed from the request when given, else generated.", "req_01jd2x8k3f0m6q1v9w4r7t5y2z"),
  "RateLimit-Limit": header("RateLimit-Limit", "Requests allowed per minute for this token (or address, without a valid token).", "600"),
  "RateLimit-Remaining": header("RateLimit-Remaining", "Requests left in the current window.", "599"),
  "RateLimit-Reset": header("RateLimit-Reset", "Seconds until the window resets.", "42"),
};
const standardHeaders = z.object(answerHeaders);

const error = (id: string, description: string, extra?: Record<string, z.ZodType>): ZodOpenApiResponseObject => ({
  id,
  description,
  headers: z.object({ ...answerHeaders, ...extra }),
  content: json(plantErrorSchema),
});

const badRequest = error("BadRequest", "The request is not valid: a field, the limit or the id is wrong.");
const unauthorized = error(
  "Unauthorized",
  "No valid bearer token: missing, malformed, expired or revoked.",
  { "WWW-Authenticate": requiredHeader("WWW-Authenticate", "The bearer challenge.", 'Bearer realm="chorus", error="invalid_token"') },
);
const notFound = error("NotFound", "No plant with this id in your account.");
const tooManyRequests = error(
  "TooManyRequests",
  "Too many requests with this token; retry after `Retry-After` seconds.",
  { "Retry-After": requiredHeader("Retry-After", "Seconds to wait.", "12") },
);
const unexpected = error(
  "UnexpectedError",
  "Any other failure, with the same Error body: 405 (method, with `Allow`), 413 (body over 64 KiB), 415 (compressed body), 500.",
  { Allow: header("Allow", "On a 405: the methods this path serves.", "GET, HEAD, POST") },
);

/** The OpenAPI 3.1 document of the plant store, built from the zod schemas its handlers use. */
export function buildPlantStoreDocument() {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Plant Store",
      version: "1.0.0",
      description: [
        "A small sample API served by Chorus: each account keeps its own list of plants.",
        "",
        "Every operation needs `Authorization: Bearer <token>` with any valid Chorus token of the account (an API token or a session token; no particular scope).",
        "Errors answer `{\"error\": <HTTP status>, \"message\": \"...\"}`.",
        "",
        "Each created plant is also announced by the **New Plant** webhook to the account's webhooks subscribed to `plant.created` (register them with `POST /v1/webhooks`).",
      ].join("\n"),
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: "/plant-store", description: "This Chorus server" }],
    security: [{ bearerAuth: [] }],
    tags: [{ name: "Plants", description: "The account's plants." }],
    paths: {
      "/plants": {
        get: {
          operationId: "listPlants",
          tags: ["Plants"],
          summary: "List plants",
          description: `Returns the account's plants, oldest first: at most \`limit\` of them, and never more than ${PLANT_LIST_CAP}.`,
          requestParams: { query: listPlantsQuery },
          responses: {
            "200": { description: "The plants, oldest first.", headers: standardHeaders, content: json(z.array(newPlantSchema)) },
            "400": badRequest,
            "401": unauthorized,
            "429": tooManyRequests,
            default: unexpected,
          },
        },
        post: {
          operationId: "createPlant",
          tags: ["Plants"],
          summary: "Add a plant",
          description: "Stores a plant in the account and announces it with the New Plant webhook.",
          requestBody: { required: true, description: "The plant to add.", content: json(plantSchema) },
          responses: {
            "200": { description: "The created plant.", headers: standardHeaders, content: json(newPlantSchema) },
            "400": badRequest,
            "401": unauthorized,
            "429": tooManyRequests,
            default: unexpected,
          },
        },
      },
      "/plants/{id}": {
        delete: {
          operationId: "deletePlant",
          tags: ["Plants"],
          summary: "Delete a plant",
          description: "Deletes one plant of the account. An id of another account's plant answers 404, like an unknown one.",
          requestParams: { path: plantIdParams },
          responses: {
            "204": { description: "The plant is deleted.", headers: standardHeaders },
            "400": badRequest,
            "401": unauthorized,
            "404": notFound,
            "429": tooManyRequests,
            default: unexpected,
          },
        },
      },
    },
    webhooks: {
      "/plant/webhook": {
        post: {
          operationId: "newPlant",
          summary: "New Plant",
          description: [
            "Sent for each created plant to the account's active webhooks subscribed to `plant.created`. The body is the NewPlant itself.",
            webhookDeliveryDescription,
          ].join(" "),
          security: [],
          requestParams: { header: webhookDeliveryHeaders },
          requestBody: { required: true, description: "The plant added to the store.", content: json(newPlantSchema) },
          responses: {
            "200": { description: "Return a 200 status to indicate that the data was received successfully." },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "A Chorus token: an API token from Settings → API tokens, or a session token from `POST /v1/auth/login`.",
        },
      },
    },
  });
}

let cached: ReturnType<typeof buildPlantStoreDocument> | undefined;

export function plantStoreDocument() {
  cached ??= buildPlantStoreDocument();
  return cached;
}
