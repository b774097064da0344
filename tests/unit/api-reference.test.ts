import { describe, expect, it } from "vitest";
import { buildReference, exampleOf, type OpenApiDoc, type SchemaView } from "@/lib/openapi/reference";

const doc: OpenApiDoc = {
  openapi: "3.1.0",
  info: { title: "Shop", version: "2.0.0", license: { name: "MIT", identifier: "MIT" } },
  servers: [{ url: "/shop" }],
  security: [{ bearerAuth: [] }],
  tags: [{ name: "Orders", description: "What customers bought." }, { name: "Unused" }],
  paths: {
    "/orders/{id}": {
      patch: {
        operationId: "updateOrder",
        tags: ["Orders"],
        summary: "Update an order",
        "x-required-scopes": ["orders:write"],
        parameters: [
          { in: "path", name: "id", schema: { type: "string", example: "ord_1" } },
          { in: "header", name: "Idempotency-Key", schema: { type: "string", example: "k'1" } },
          { in: "query", name: "notify", required: true, schema: { type: "boolean" } },
        ],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: {
                  note: { type: "string", minLength: 1, maxLength: 200, example: "Gift wrap, it's a present" },
                  status: { type: "string", enum: ["open", "shipped"] },
                  extra: { type: "string" },
                },
                required: ["status"],
              },
            },
          },
        },
        responses: {
          "200": { description: "The order.", content: { "application/json": { schema: { $ref: "#/components/schemas/Order" } } } },
          "404": { $ref: "#/components/responses/NotFound" },
        },
      },
    },
    "/health": { get: { operationId: "health", summary: "Health", security: [], responses: { "204": { description: "Fine." } } } },
  },
  webhooks: {
    "order.shipped": {
      post: { operationId: "orderShipped", summary: "Shipped", requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Order" } } } }, responses: { "200": { description: "OK" } } },
    },
  },
  components: {
    schemas: {
      Order: {
        type: "object",
        description: "An order.",
        properties: {
          id: { type: "string", example: "ord_1" },
          total: { type: "integer", minimum: 0 },
          shipped_at: { type: ["string", "null"], format: "date-time" },
          customer: { anyOf: [{ $ref: "#/components/schemas/Customer" }, { type: "null" }] },
          lines: { type: "array", items: { $ref: "#/components/schemas/Line" }, minItems: 1 },
          parent: { $ref: "#/components/schemas/Order" },
          note: { type: "string", example: "optional" },
        },
        required: ["id", "total", "shipped_at", "customer", "lines"],
        additionalProperties: false,
      },
      Customer: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      Line: { type: "object", properties: { sku: { type: "string", example: "FERN-1" }, quantity: { type: "integer", default: 1 } }, required: ["sku"] },
      Error: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
    },
    responses: { NotFound: { description: "`not_found`: no such order.", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } } },
    securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "A token." } },
  },
};

const reference = buildReference(doc, { origin: "https://chorus.example.com/" });
const update = reference.tags[0].operations[0];
const field = (schema: SchemaView, name: string) => schema.fields!.find((f) => f.name === name)!;

describe("the API reference of a document", () => {
  it("groups operations by tag, drops empty tags and names the base URL, licence and security", () => {
    expect(reference).toMatchObject({ title: "Shop", version: "2.0.0", license: "MIT", baseUrl: "https://chorus.example.com/shop" });
    expect(reference.tags.map((t) => [t.name, t.anchor, t.operations.map((o) => o.anchor)])).toEqual([
      ["Orders", "tag-orders", ["op-updateorder"]],
      ["Other", "tag-other", ["op-health"]],
    ]);
    expect(reference.securitySchemes).toEqual([{ name: "bearerAuth", scheme: "bearer, JWT", description: "A token." }]);
    expect(update).toMatchObject({ method: "PATCH", path: "/orders/{id}", auth: ["bearerAuth"], scopes: ["orders:write"] });
    expect(reference.tags[1].operations[0].auth).toBe("none");
  });

  it("resolves references into nested fields, with nullable, arrays, limits and cycles", () => {
    const order = update.responses[0].bodies[0].schema!;
    expect(order).toMatchObject({ refName: "Order", type: "object", description: "An order." });
    expect(field(order, "total").schema.constraints).toEqual([{ kind: "atLeast", n: 0 }]);
    expect(field(order, "shipped_at").schema).toMatchObject({ type: "string", format: "date-time", nullable: true });
    expect(field(order, "customer")).toMatchObject({ required: true, schema: { refName: "Customer", nullable: true } });
    expect(field(order, "customer").schema.fields!.map((f) => f.name)).toEqual(["name"]);
    const lines = field(order, "lines").schema;
    expect(lines.constraints).toEqual([{ kind: "atLeast", n: 1, unit: "item" }]);
    expect(lines.items).toMatchObject({ refName: "Line" });
    expect(field(lines.items!, "quantity").schema.constraints).toEqual([{ kind: "default", value: "1" }]);
    // Order inside Order stops at a link instead of recursing.
    expect(field(order, "parent").schema).toMatchObject({ refName: "Order", truncated: true });
    expect(field(order, "note").required).toBe(false);
  });

  it("names shared error responses and describes them once", () => {
    expect(update.responses[1]).toMatchObject({ status: "404", refName: "NotFound", headers: [] });
    expect(update.responses[1].bodies[0].schema).toMatchObject({ refName: "Error", truncated: true });
    expect(reference.responses).toEqual([expect.objectContaining({ refName: "NotFound", anchor: "response-notfound", description: "`not_found`: no such order." })]);
    expect(reference.schemas.map((s) => s.anchor)).toEqual(["schema-customer", "schema-error", "schema-line", "schema-order"]);
    // The schemas section links nested components rather than repeating them.
    const order = reference.schemas.find((s) => s.name === "Order")!.schema;
    expect(field(order, "lines").schema.items).toMatchObject({ refName: "Line", truncated: true });
  });

  it("builds a curl example with the path, required query, idempotency key and a body, shell-quoted", () => {
    expect(update.curl).toBe(
      [
        "curl -X PATCH 'https://chorus.example.com/shop/orders/ord_1?notify=true'",
        '-H "Authorization: Bearer $TOKEN"',
        "-H 'Idempotency-Key: k'\\''1'",
        '-H "Content-Type: application/json"',
        `-d '{\n  "note": "Gift wrap, it'\\''s a present",\n  "status": "open"\n}'`,
      ].join(" \\\n  "),
    );
    expect(reference.tags[1].operations[0].curl).toBe("curl -X GET 'https://chorus.example.com/shop/health'");
  });

  it("lists webhooks with their bodies, and examples show what is always there", () => {
    expect(reference.webhooks).toEqual([expect.objectContaining({ anchor: "webhook-ordershipped", method: "POST", path: "order.shipped" })]);
    const order = reference.webhooks[0].requestBody!.schema!;
    expect(exampleOf(order, { requiredOnly: true })).toEqual({ id: "ord_1", total: 1, shipped_at: "2026-11-22T10:15:30.123Z", customer: { name: "string" }, lines: [{ sku: "FERN-1" }] });
    expect(exampleOf(order)).toMatchObject({ note: "optional" });
  });
});
