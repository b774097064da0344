import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { roleAllows, scopes } from "@/lib/auth/scopes";
import { eventTypes } from "@/lib/events/types";
import { buildPlantStoreDocument } from "@/lib/openapi/plant-store";
import { buildV1Document } from "@/lib/openapi/v1";

type Operation = {
  operationId?: string;
  security?: unknown[];
  responses: Record<string, unknown>;
  "x-required-scopes"?: string[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, any>>;
  [key: string]: any;
};

// Every core operation of the API (conversations, messages, contacts, webhooks, tokens…), with its scope ("any" = any valid token, "none" = no token).
const CORE_OPERATIONS: [string, string, string][] = [
  ["post", "/v1/auth/login", "none"],
  ["post", "/v1/auth/tokens", "session"],
  ["get", "/v1/auth/tokens", "any"],
  ["delete", "/v1/auth/tokens/{id}", "any"],
  ["get", "/v1/auth/verify", "any"],
  ["post", "/v1/auth/refresh", "any"],
  ["get", "/v1/health", "any"],
  ["get", "/v1/account", "any"],
  ["get", "/v1/conversations", "conversations:read"],
  ["get", "/v1/conversations/{id}", "conversations:read"],
  ["post", "/v1/conversations/{id}/assign", "conversations:write"],
  ["post", "/v1/conversations/{id}/unassign", "conversations:write"],
  ["post", "/v1/conversations/{id}/close", "conversations:write"],
  ["post", "/v1/conversations/{id}/reopen", "conversations:write"],
  ["delete", "/v1/conversations/{id}", "conversations:delete"],
  ["get", "/v1/conversations/{id}/messages", "messages:read"],
  ["post", "/v1/messages", "messages:write"],
  ["get", "/v1/messages/{id}", "messages:read"],
  ["delete", "/v1/messages/{id}", "messages:delete"],
  ["get", "/v1/messages/{id}/media", "messages:read"],
  ["post", "/v1/messages/polish", "messages:write"],
  ["post", "/v1/conversations/{id}/suggestions", "messages:read"],
  ["post", "/v1/conversations/{id}/suggestions/dismissals", "messages:write"],
  ["post", "/v1/conversations/{id}/draft", "messages:write"],
  ["get", "/v1/config/assistant", "config:read"],
  ["put", "/v1/config/assistant", "config:write"],
  ["get", "/v1/users", "users:read"],
  ["post", "/v1/users", "users:write"],
  ["get", "/v1/users/{id}", "users:read"],
  ["patch", "/v1/users/{id}", "users:write"],
  ["delete", "/v1/users/{id}", "users:delete"],
  ["get", "/v1/reports/summary", "reports:read"],
  ["get", "/v1/reports/timeseries", "reports:read"],
  // Reports a manager trusts.
  ["get", "/v1/reports/agents", "reports:read"],
  ["get", "/v1/reports/heatmap", "reports:read"],
  ["get", "/v1/reports/export", "reports:read"],
  ["get", "/v1/config/csat", "config:read"],
  ["put", "/v1/config/csat", "config:write"],
  ["get", "/v1/config/business-profile", "config:read"],
  ["put", "/v1/config/business-profile", "config:write"],
  ["get", "/v1/config/documents", "config:read"],
  ["post", "/v1/config/documents", "config:write"],
  ["delete", "/v1/config/documents/{id}", "config:write"],
  ["get", "/v1/config/number", "config:read"],
  ["put", "/v1/config/number", "config:write"],
  ["post", "/v1/webhooks", "webhooks:write"],
  ["get", "/v1/webhooks", "webhooks:read"],
  ["get", "/v1/webhooks/{id}", "webhooks:read"],
  ["patch", "/v1/webhooks/{id}", "webhooks:write"],
  ["delete", "/v1/webhooks/{id}", "webhooks:delete"],
  ["post", "/v1/webhooks/{id}/verify", "webhooks:write"],
  ["get", "/v1/webhooks/{id}/logs", "webhooks:read"],
  ["get", "/v1/webhooks/{id}/stats", "webhooks:read"],
  ["post", "/v1/webhooks/{id}/deliveries/{delivery_id}/retry", "webhooks:write"],
  ["get", "/v1/events/stream", "any"],
  ["get", "/v1/openapi.json", "none"],
  // The team inbox.
  ["get", "/v1/conversations/{id}/notes", "conversations:read"],
  ["post", "/v1/conversations/{id}/notes", "conversations:write"],
  ["get", "/v1/conversations/{id}/activity", "conversations:read"],
  ["post", "/v1/conversations/{id}/typing", "conversations:write"],
  ["get", "/v1/notifications", "any"],
  ["post", "/v1/notifications/read", "any"],
  ["get", "/v1/config/inbox", "config:read"],
  ["put", "/v1/config/inbox", "config:write"],
  ["get", "/v1/canned-replies", "config:read"],
  ["post", "/v1/canned-replies", "config:write"],
  ["patch", "/v1/canned-replies/{id}", "config:write"],
  ["delete", "/v1/canned-replies/{id}", "config:write"],
  ["get", "/v1/automations", "config:read"],
  ["post", "/v1/automations", "config:write"],
  ["patch", "/v1/automations/{id}", "config:write"],
  ["delete", "/v1/automations/{id}", "config:write"],
  ["post", "/v1/automations/preview", "config:read"],
  ["get", "/v1/macros", "conversations:read"],
  ["post", "/v1/macros", "conversations:write"],
  ["patch", "/v1/macros/{id}", "conversations:write"],
  ["delete", "/v1/macros/{id}", "conversations:write"],
  ["post", "/v1/conversations/{id}/macros/{macro_id}", "conversations:write"],
];

// Routes the app serves beyond the core ones (the settings pages use them too).
const EXTRA_OPERATIONS: [string, string, string][] = [
  ["get", "/v1/config/documents/{id}", "config:read"],
  ["get", "/v1/config/documents/{id}/file", "config:read"],
  ["post", "/v1/config/number/test", "config:write"],
];

// Integrations and team administration.
const TEAM_ADMIN_OPERATIONS: [string, string, string][] = [
  ["get", "/v1/apps", "apps:read"],
  ["post", "/v1/apps", "apps:write"],
  ["delete", "/v1/apps/{id}", "apps:write"],
  ["post", "/v1/invitations", "users:write"],
  ["get", "/v1/invitations", "users:read"],
  ["delete", "/v1/invitations/{id}", "users:write"],
  ["post", "/v1/invitations/{id}/resend", "users:write"],
  ["get", "/v1/config/security", "config:read"],
  ["put", "/v1/config/security", "config:write"],
  ["post", "/v1/auth/password", "session"],
  ["post", "/v1/users/{id}/password-reset", "users:write"],
  ["get", "/v1/audit-log", "audit:read"],
];

// Labels, snooze, search and contacts.
const TEAM_INBOX_OPERATIONS: [string, string, string][] = [
  ["get", "/v1/labels", "config:read"],
  ["post", "/v1/labels", "config:write"],
  ["delete", "/v1/labels/{id}", "config:write"],
  ["put", "/v1/conversations/{id}/labels", "conversations:write"],
  ["post", "/v1/conversations/{id}/snooze", "conversations:write"],
  ["get", "/v1/search", "conversations:read"],
  ["get", "/v1/contacts", "contacts:read"],
  ["get", "/v1/contacts/export", "contacts:read"],
  ["get", "/v1/contacts/{id}", "contacts:read"],
  ["patch", "/v1/contacts/{id}", "contacts:write"],
];


// Message templates.
const TEMPLATE_OPERATIONS: [string, string, string][] = [
  ["get", "/v1/templates", "config:read"],
  ["post", "/v1/templates", "config:write"],
  ["get", "/v1/templates/{id}", "config:read"],
  ["delete", "/v1/templates/{id}", "config:write"],
];

// Cost before sending.
const PRICING_OPERATIONS: [string, string, string][] = [
  ["get", "/v1/config/pricing", "config:read"],
  ["put", "/v1/config/pricing", "config:write"],
  ["get", "/v1/config/pricing/estimate", "config:read"],
  ["get", "/v1/reports/spend", "reports:read"],
];

// Team workflow.
const TEAM_WORKFLOW_OPERATIONS: [string, string, string][] = [
  ["get", "/v1/users/me", "users:read"],
  ["put", "/v1/users/me/availability", "session"],
  ["patch", "/v1/users/me", "session"],
  ["get", "/v1/teams", "teams:read"],
  ["post", "/v1/teams", "teams:write"],
  ["get", "/v1/teams/{id}", "teams:read"],
  ["patch", "/v1/teams/{id}", "teams:write"],
  ["delete", "/v1/teams/{id}", "teams:write"],
  ["get", "/v1/config/assignment", "config:read"],
  ["put", "/v1/config/assignment", "config:write"],
  ["get", "/v1/sla-policies", "config:read"],
  ["post", "/v1/sla-policies", "config:write"],
  ["get", "/v1/sla-policies/{id}", "config:read"],
  ["patch", "/v1/sla-policies/{id}", "config:write"],
  ["delete", "/v1/sla-policies/{id}", "config:write"],
  ["patch", "/v1/conversations/{id}", "conversations:write"],
  ["put", "/v1/conversations/{id}/sla", "conversations:write"],
  ["get", "/v1/reports/sla", "reports:read"],
];

// Campaigns: consent, contact import and paced sends.
const CAMPAIGN_OPERATIONS: [string, string, string][] = [
  ["get", "/v1/campaigns", "config:read"],
  ["post", "/v1/campaigns", "config:write"],
  ["post", "/v1/campaigns/audience-preview", "config:read"],
  ["get", "/v1/campaigns/{id}", "config:read"],
  ["patch", "/v1/campaigns/{id}", "config:write"],
  ["delete", "/v1/campaigns/{id}", "config:write"],
  ["post", "/v1/campaigns/{id}/schedule", "config:write"],
  ["post", "/v1/campaigns/{id}/pause", "config:write"],
  ["post", "/v1/campaigns/{id}/resume", "config:write"],
  ["post", "/v1/campaigns/{id}/cancel", "config:write"],
  ["get", "/v1/campaigns/{id}/recipients", "config:read"],
  ["get", "/v1/config/campaigns", "config:read"],
  ["put", "/v1/config/campaigns", "config:write"],
  ["put", "/v1/contacts/{id}/labels", "contacts:write"],
  ["post", "/v1/contacts/import", "contacts:write"],
];

// Web Push: a signed-in person's own devices.
const PUSH_OPERATIONS: [string, string, string][] = [
  ["post", "/v1/push/subscriptions", "session"],
  ["delete", "/v1/push/subscriptions", "session"],
];

const ALL_OPERATIONS = [...CORE_OPERATIONS, ...EXTRA_OPERATIONS, ...TEAM_ADMIN_OPERATIONS, ...TEAM_INBOX_OPERATIONS, ...TEMPLATE_OPERATIONS, ...PRICING_OPERATIONS, ...TEAM_WORKFLOW_OPERATIONS, ...CAMPAIGN_OPERATIONS, ...PUSH_OPERATIONS];

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options", "trace"]);

function operations(paths: Doc["paths"]) {
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, op]) => ({ path, method, op })),
  );
}

async function validate(doc: unknown) {
  const validator = new Validator();
  const result = await validator.validate(JSON.parse(JSON.stringify(doc)));
  return { ...result, version: validator.version };
}

describe("the plant store OpenAPI document", () => {
  const doc = buildPlantStoreDocument() as unknown as Doc;

  it("validates against the OpenAPI 3.1 schema", async () => {
    const result = await validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(result.version).toBe("3.1");
  });

  it("names the API, its version, licence, server and bearer security", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: "Plant Store", version: "1.0.0", license: { name: "MIT" } });
    expect(doc.servers).toEqual([expect.objectContaining({ url: "/plant-store" })]);
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer", bearerFormat: "JWT" });
  });

  it("documents exactly the three operations with their statuses", () => {
    const found = operations(doc.paths).map(({ method, path, op }) => [method, path, Object.keys(op.responses).sort()]);
    expect(found).toEqual([
      ["get", "/plants", ["200", "400", "401", "429", "default"]],
      ["post", "/plants", ["200", "400", "401", "429", "default"]],
      ["delete", "/plants/{id}", ["204", "400", "401", "404", "429", "default"]],
    ]);
    const deleteOp = doc.paths["/plants/{id}"].delete as any;
    expect(deleteOp.parameters[0]).toMatchObject({ name: "id", in: "path", required: true, schema: { type: "integer", format: "int64", minimum: 1 } });
    const listOp = doc.paths["/plants"].get as any;
    expect(listOp.parameters[0]).toMatchObject({ name: "limit", in: "query", schema: { type: "integer", format: "int32", minimum: 1 } });
    expect(listOp.parameters[0].required).toBeFalsy();
    expect(doc.paths["/plants"].post.requestBody!.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Plant" });
  });

  it("defines Plant, NewPlant and Error for the plant store", () => {
    const { Plant, NewPlant, Error } = doc.components.schemas;
    expect(Plant.required).toEqual(["name"]);
    expect(Plant.properties.name).toMatchObject({ type: "string", minLength: 1, maxLength: 200 });
    expect(Plant.properties.tag).toMatchObject({ type: "string", maxLength: 100 });
    expect(Plant.additionalProperties).toBeUndefined();
    expect(NewPlant.required.sort()).toEqual(["id", "name"]);
    expect(NewPlant.properties.id).toMatchObject({ type: "integer", format: "int64" });
    expect(Error.required.sort()).toEqual(["error", "message"]);
    expect(Error.properties.error).toMatchObject({ type: "integer", format: "int32" });
  });

  it("describes the New Plant webhook at /plant/webhook with a NewPlant body", () => {
    const hook = doc.webhooks["/plant/webhook"].post as any;
    expect(hook.summary).toBe("New Plant");
    expect(hook.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/NewPlant" });
    expect(Object.keys(hook.responses)).toEqual(["200"]);
    expect(hook.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(["X-Service-Signature", "webhook-id", "webhook-timestamp", "webhook-signature"]),
    );
  });
});

describe("the /v1 OpenAPI document", () => {
  const doc = buildV1Document() as unknown as Doc;
  const ops = operations(doc.paths);

  it("validates against the OpenAPI 3.1 schema", async () => {
    const result = await validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(result.version).toBe("3.1");
  });

  it("documents every core operation, the app's extra routes, and nothing else", () => {
    const documented = ops.map(({ method, path }) => `${method.toUpperCase()} ${path}`).sort();
    const expected = ALL_OPERATIONS.map(([method, path]) => `${method.toUpperCase()} ${path}`).sort();
    expect(documented).toEqual(expected);
    for (const [method, path] of CORE_OPERATIONS) expect(documented).toContain(`${method.toUpperCase()} ${path}`);
  });

  it("gives each operation a unique operationId, its scope and the error answers that apply", () => {
    const ids = ops.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [method, path, access] of ALL_OPERATIONS) {
      const op = doc.paths[path][method];
      const statuses = Object.keys(op.responses);
      const label = `${method.toUpperCase()} ${path}`;
      expect(statuses.some((s) => s.startsWith("2")), label).toBe(true);
      expect(statuses, label).toContain("500");
      if (access === "none") {
        expect(op.security, label).toEqual([]);
      } else {
        expect(op.security, label).toBeUndefined();
        expect(statuses, label).toEqual(expect.arrayContaining(["401", "429"]));
      }
      const scope = (scopes as readonly string[]).includes(access) ? access : undefined;
      expect(op["x-required-scopes"], label).toEqual(scope ? [scope] : []);
      if (scope || access === "session") expect(statuses, label).toContain("403");
      if (path.includes("{")) expect(statuses, label).toContain("404");
      if (op.requestBody) expect(statuses, label).toEqual(expect.arrayContaining(["400", "413", "415"]));
      for (const status of statuses.filter((s) => /^[45]/.test(s))) {
        const response = op.responses[status] as { $ref: string };
        const resolved = doc.components.responses[response.$ref.split("/").pop()!];
        expect(resolved.content["application/json"].schema, `${label} ${status}`).toEqual({ $ref: "#/components/schemas/Error" });
      }
    }
  });

  it("marks the idempotent routes with the Idempotency-Key header", () => {
    const idempotent = ops.filter(({ op }) => op.parameters?.some((p) => p.name === "Idempotency-Key" && p.in === "header"));
    expect(idempotent.map(({ method, path }) => `${method.toUpperCase()} ${path}`).sort()).toEqual([
      "POST /v1/auth/tokens",
      "POST /v1/campaigns",
      "POST /v1/messages",
      "POST /v1/webhooks",
    ]);
  });

  it("shares the error body as a component", () => {
    const error = doc.components.schemas.Error;
    expect(error.required.sort()).toEqual(["error", "request_id"]);
    expect(error.properties.error.required.sort()).toEqual(["code", "message"]);
    expect(Object.keys(doc.components.responses).sort()).toEqual(
      ["BadGateway", "BadRequest", "Conflict", "Forbidden", "InternalError", "NotFound", "PayloadTooLarge", "RequestHeaderFieldsTooLarge", "ServiceUnavailable", "TooManyRequests", "Unauthorized", "UnsupportedMediaType"].sort(),
    );
  });

  it("documents the 503 `overloaded` answer with Retry-After on every operation", () => {
    const unavailable = doc.components.responses.ServiceUnavailable as any;
    expect(unavailable.description).toContain("`overloaded`");
    expect(unavailable.headers["Retry-After"]).toBeDefined();
    for (const [route, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(item)) {
        if (!op?.responses) continue;
        expect(op.responses["503"], `${method.toUpperCase()} ${route}`).toEqual({ $ref: "#/components/responses/ServiceUnavailable" });
      }
    }
  });

  it("documents each event type as a webhook with its envelope and data", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...eventTypes].sort());
    for (const type of eventTypes) {
      const body = doc.webhooks[type].post.requestBody!.content["application/json"].schema as any;
      if (type === "plant.created") {
        expect(body).toEqual({ $ref: "#/components/schemas/NewPlant" });
        continue;
      }
      expect(body.required.sort(), type).toEqual(["created_at", "data", "id", "type"]);
      expect(body.properties.type, type).toMatchObject({ const: type });
      expect(body.properties.data.type, type).toBe("object");
    }
    expect(doc.components.schemas.EventEnvelope.required.sort()).toEqual(["created_at", "data", "id", "type"]);
  });

  it("only lists scopes that some role holds", () => {
    for (const { op } of ops) {
      for (const scope of op["x-required-scopes"] ?? []) expect(roleAllows("admin", scope as never)).toBe(true);
    }
  });
});
