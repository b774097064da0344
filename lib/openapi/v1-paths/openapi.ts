import { z } from "zod";
import type { ZodOpenApiOperationObject } from "zod-openapi";
import { operationsFor, type V1Domain } from "../v1-common";

const tag = { name: "Reference", description: "This document." };
const op = operationsFor(tag.name);
const etag = z.string().meta({ description: "Identifies this version of the document.", example: '"3q2-7w"' });

/** Adds the 304 answer to a conditional GET. */
function withNotModified(operation: ZodOpenApiOperationObject): ZodOpenApiOperationObject {
  return {
    ...operation,
    responses: {
      ...operation.responses,
      "304": { description: "Not Modified: the `If-None-Match` ETag is current; no body.", headers: z.object({ ETag: etag }) },
    },
  };
}

export const openapiDomain: V1Domain = {
  tag,
  paths: {
    "/v1/openapi.json": {
      get: withNotModified(
        op({
          operationId: "getOpenApiDocument",
          summary: "Get this OpenAPI document",
          description: "Served from memory with an `ETag`; send it back as `If-None-Match` to get `304 Not Modified` while the document is unchanged.",
          access: { auth: "none" },
          headers: z.object({ "If-None-Match": z.string().optional().meta({ description: "The `ETag` of the copy you hold.", example: '"3q2-7w"' }) }),
          success: {
            status: "200",
            description: "The OpenAPI 3.1 document of /v1.",
            headers: { ETag: etag },
            schema: z.looseObject({ openapi: z.string().meta({ example: "3.1.0" }), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) }),
          },
        }),
      ),
    },
  },
};
