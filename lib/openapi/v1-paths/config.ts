import { z } from "zod";
import { estimateOutput, estimateQuery, pricingInput, pricingOutput } from "@/lib/pricing/schemas";
import { numberConfigInput, numberConfigOutput, numberTestOutput } from "@/lib/network/schemas";
import { businessProfileInput, businessProfileOutput, documentOutput, documentWithTextOutput, uploadDocumentInput } from "@/lib/profile/schemas";
import { deleted, operationsFor, page, paginationQuery, pathIds, type V1Domain } from "../v1-common";

const tag = { name: "Configuration", description: "Business profile, knowledge documents and the number integration." };
const op = operationsFor(tag.name);

const documentId = pathIds({ id: "document" });

export const configDomain: V1Domain = {
  tag,
  paths: {
    "/v1/config/pricing": {
      get: op({
        operationId: "getPricing",
        summary: "Get the price table",
        description: "What one message costs per country calling code and pricing category (marketing, utility, authentication, service), in one currency; `*` prices every country without its own row. An account that never replaced it has the documented default (`source: \"default\"`, EUR, rounded from the network's published rate card).",
        access: { scope: "config:read" },
        success: { status: "200", description: "The table.", schema: pricingOutput },
      }),
      put: op({
        operationId: "updatePricing",
        summary: "Replace the price table",
        description: "Replaces the whole table with `rates`, or with `csv` (header `country_code,category,price`, then one rate per line). A bad line is a 400 naming it (`line 3: …`), two prices for the same country and category are a 400, and nothing changes. Audited.",
        access: { scope: "config:write" },
        body: pricingInput,
        success: { status: "200", description: "The saved table.", schema: pricingOutput },
      }),
    },
    "/v1/config/pricing/estimate": {
      get: op({
        operationId: "estimatePrice",
        summary: "Estimate one message's price",
        description: "The price of one message of `category` to the number `to` by the account's table: the row of the number's country calling code, else the `*` row; `price: null` when the table has neither. The template picker shows `label`.",
        access: { scope: "config:read" },
        query: estimateQuery,
        success: { status: "200", description: "The estimate.", schema: estimateOutput },
      }),
    },
    "/v1/config/business-profile": {
      get: op({
        operationId: "getBusinessProfile",
        summary: "Get the business profile",
        access: { scope: "config:read" },
        success: { status: "200", description: "The profile, with whether the business is open now.", schema: businessProfileOutput },
      }),
      put: op({
        operationId: "updateBusinessProfile",
        summary: "Replace the business profile",
        description:
          "Replaces the whole profile: send every field (`hours: null` removes the opening hours). Unknown fields, such as the read-only ones of the GET answer, are ignored, so you can send back what you read. Both automatic answers need opening hours.",
        access: { scope: "config:write" },
        body: businessProfileInput,
        success: { status: "200", description: "The saved profile.", schema: businessProfileOutput },
      }),
    },
    "/v1/config/documents": {
      get: op({
        operationId: "listDocuments",
        summary: "List documents",
        description: "Oldest first.",
        access: { scope: "config:read" },
        query: paginationQuery,
        success: { status: "200", description: "A page of documents.", schema: page(documentOutput) },
      }),
      post: op({
        operationId: "uploadDocument",
        summary: "Upload a PDF document",
        description: "PDF only, at most 10 MiB, at most 20 per account (409 beyond). Its text is extracted and stored for the smart features; a damaged or password-protected PDF is a 400 naming `data`.",
        access: { scope: "config:write" },
        body: uploadDocumentInput,
        bodyLimit: "32 MiB",
        success: { status: "201", description: "The stored document.", schema: documentOutput },
        errors: [409],
      }),
    },
    "/v1/config/documents/{id}": {
      get: op({
        operationId: "getDocument",
        summary: "Get a document and its text",
        access: { scope: "config:read" },
        path: documentId,
        success: { status: "200", description: "The document, with the text extracted from it.", schema: documentWithTextOutput },
      }),
      delete: op({
        operationId: "deleteDocument",
        summary: "Delete a document",
        access: { scope: "config:write" },
        path: documentId,
        success: deleted,
      }),
    },
    "/v1/config/documents/{id}/file": {
      get: op({
        operationId: "getDocumentFile",
        summary: "Download a document's PDF",
        access: { scope: "config:read" },
        path: documentId,
        success: {
          status: "200",
          description: "The PDF as uploaded.",
          headers: {
            "Content-Disposition": z.string().meta({ description: "`inline`, with the file name.", example: 'inline; filename="price-list.pdf"' }),
          },
          content: { "application/pdf": { schema: { type: "string", contentMediaType: "application/pdf", description: "The PDF bytes." } } },
        },
      }),
    },
    "/v1/config/number": {
      get: op({
        operationId: "getNumberConfig",
        summary: "Get the number integration",
        access: { scope: "config:read" },
        success: { status: "200", description: "The integration, without secrets.", schema: numberConfigOutput },
      }),
      put: op({
        operationId: "updateNumberConfig",
        summary: "Configure the number integration",
        description:
          "`sandbox` needs nothing else. `cloud` needs the phone number, its ids, the access token and the app secret (write-only: omit them to keep the stored ones) and a verify token; its status is `pending` until a connection test. A `phone_number_id` already connected to another account is a 409.",
        access: { scope: "config:write" },
        body: numberConfigInput,
        success: { status: "200", description: "The saved integration, without secrets.", schema: numberConfigOutput },
        errors: [409],
      }),
    },
    "/v1/config/number/test": {
      post: op({
        operationId: "testNumberConnection",
        summary: "Test the number integration",
        description: "Asks the network whether the saved settings work and records the answer as the number's status (`connected` or `error`; the sandbox always works). No body.",
        access: { scope: "config:write" },
        success: { status: "200", description: "What the network answered.", schema: numberTestOutput },
      }),
    },
  },
};
