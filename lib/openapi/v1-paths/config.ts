import { z } from "zod";
import { hoursSchema } from "@/lib/profile/hours";
import { idOf, operationsFor, page, paginationQuery, pathIds, timestamp, type V1Domain } from "../v1-common";

// Written from SPEC sections 4, 6 and 7. When lib/profile/schemas.ts and
// lib/network/schemas.ts exist, their public schemas replace these.

const tag = { name: "Configuration", description: "Business profile, knowledge documents and the number integration." };
const op = operationsFor(tag.name);

export const autoReplySchema = z.object({
  outside_hours: z.object({ enabled: z.boolean(), message: z.string().max(1024) }),
  hours_question: z.object({ enabled: z.boolean() }),
});

export const businessProfileSchema = z
  .object({
    name: z.string().min(1).max(100),
    description: z.string().max(5000),
    hours: hoursSchema.nullable(),
    auto_reply: autoReplySchema.nullable(),
    updated_at: timestamp().optional(),
  })
  .meta({ id: "BusinessProfile" });

export const businessProfileInput = z.object({
  name: z.string().min(1).max(100),
  description: z.string().max(5000).optional(),
  hours: hoursSchema.nullable().optional(),
  auto_reply: autoReplySchema.nullable().optional(),
});

export const documentSchema = z
  .object({
    id: idOf("document"),
    filename: z.string(),
    size: z.int().min(0).meta({ description: "Bytes." }),
    pages: z.int().min(0),
    created_at: timestamp(),
  })
  .meta({ id: "Document", description: "A PDF whose text the smart features use." });

export const documentInput = z.object({
  filename: z.string().min(1).max(255).meta({ example: "price-list.pdf" }),
  data: z.string().min(1).meta({ description: "The PDF, standard Base64 (at most 10 MiB decoded).", contentEncoding: "base64" }),
});

const provider = z.enum(["sandbox", "cloud"]);

export const numberConfigSchema = z
  .looseObject({
    provider,
    phone_number: z.string().nullable().meta({ description: "E.164 with `+`.", example: "+15550100199" }),
    phone_number_id: z.string().nullable(),
    business_account_id: z.string().nullable(),
    verify_token: z.string().nullable(),
    api_base_url: z.string().nullable(),
    coexistence: z.boolean(),
    status: z.enum(["sandbox", "pending", "connected", "error"]),
    status_reason: z.string().nullable().optional(),
    access_token_set: z.boolean().optional().meta({ description: "Whether an access token is stored (it is never returned)." }),
    app_secret_set: z.boolean().optional().meta({ description: "Whether an app secret is stored (it is never returned)." }),
  })
  .meta({ id: "NumberConfig", description: "The number integration. `access_token` and `app_secret` are write-only." });

export const numberConfigInput = z.object({
  provider,
  phone_number: z.string().optional().meta({ description: "E.164 with `+`.", example: "+15550100199" }),
  phone_number_id: z.string().optional(),
  business_account_id: z.string().optional(),
  access_token: z.string().optional().meta({ description: "Write-only." }),
  app_secret: z.string().optional().meta({ description: "Write-only." }),
  verify_token: z.string().optional(),
  api_base_url: z.url().optional(),
  coexistence: z.boolean().optional(),
});

export const configDomain: V1Domain = {
  tag,
  paths: {
    "/v1/config/business-profile": {
      get: op({
        operationId: "getBusinessProfile",
        summary: "Get the business profile",
        access: { scope: "config:read" },
        success: { status: "200", description: "The profile.", schema: businessProfileSchema },
      }),
      put: op({
        operationId: "updateBusinessProfile",
        summary: "Replace the business profile",
        description: "Name (1 to 100 characters), description (at most 5,000), opening hours in an IANA time zone, and the automatic answers.",
        access: { scope: "config:write" },
        body: businessProfileInput,
        success: { status: "200", description: "The saved profile.", schema: businessProfileSchema },
      }),
    },
    "/v1/config/documents": {
      get: op({
        operationId: "listDocuments",
        summary: "List documents",
        access: { scope: "config:read" },
        query: paginationQuery,
        success: { status: "200", description: "A page of documents.", schema: page(documentSchema) },
      }),
      post: op({
        operationId: "uploadDocument",
        summary: "Upload a PDF document",
        description: "PDF only, at most 10 MiB, at most 20 per account; its text is extracted and stored.",
        access: { scope: "config:write" },
        body: documentInput,
        bodyLimit: "32 MiB",
        success: { status: "201", description: "The stored document.", schema: documentSchema },
        errors: [409],
      }),
    },
    "/v1/config/documents/{id}": {
      delete: op({
        operationId: "deleteDocument",
        summary: "Delete a document",
        access: { scope: "config:write" },
        path: pathIds({ id: "document" }),
        success: { status: "204", description: "Deleted." },
      }),
    },
    "/v1/config/number": {
      get: op({
        operationId: "getNumberConfig",
        summary: "Get the number integration",
        access: { scope: "config:read" },
        success: { status: "200", description: "The integration, without secrets.", schema: numberConfigSchema },
      }),
      put: op({
        operationId: "updateNumberConfig",
        summary: "Configure the number integration",
        description: "`sandbox` needs nothing else; `cloud` needs the phone number, its ids and the access token and app secret (write-only).",
        access: { scope: "config:write" },
        body: numberConfigInput,
        success: { status: "200", description: "The saved integration, without secrets.", schema: numberConfigSchema },
      }),
    },
  },
};
