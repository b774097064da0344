import { z } from "zod";
import { operationsFor, type V1Domain } from "../v1-common";

const tag = { name: "Reference", description: "This document." };
const op = operationsFor(tag.name);

export const openapiDomain: V1Domain = {
  tag,
  paths: {
    "/v1/openapi.json": {
      get: op({
        operationId: "getOpenApiDocument",
        summary: "Get this OpenAPI document",
        access: { auth: "none" },
        success: {
          status: "200",
          description: "The OpenAPI 3.1 document of /v1.",
          schema: z.looseObject({ openapi: z.string().meta({ example: "3.1.0" }), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) }),
        },
      }),
    },
  },
};
