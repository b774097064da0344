/**
 * Turns a served OpenAPI 3.1 document into what the in-app API reference shows: operations
 * grouped by tag, their parameters, bodies and answers with every `$ref` resolved into field
 * tables, the webhooks, and a curl example per operation. Pure: no React, no I/O.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export type OpenApiDoc = {
  openapi: string;
  info: { title: string; version: string; description?: string; license?: { name: string; identifier?: string; url?: string } };
  servers?: { url: string; description?: string }[];
  security?: Record<string, string[]>[];
  tags?: { name: string; description?: string }[];
  paths?: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
};

export type SchemaView = {
  /** A short type label: `string`, `integer`, `object`, `array`, `any of`… */
  type: string;
  /** The `format` or media type (`date-time`, `int64`, `uri`, base64…). */
  format?: string;
  /** The component it came from (`Message`), for a link to its definition. */
  refName?: string;
  nullable: boolean;
  title?: string;
  description?: string;
  /** Allowed values (an enum, or a const as a one-value list). */
  values?: Json[];
  /** Its limits, as facts the page words in the reader's language ("1 to 100 characters", "default 50"). */
  constraints: Limit[];
  example?: Json;
  fields?: FieldView[];
  /** Extra keys: `true` for any, a schema for a map's values. */
  additional?: SchemaView | true;
  items?: SchemaView;
  /** anyOf / oneOf alternatives (beside `fields` when an object's fields combine in set ways). */
  variants?: SchemaView[];
  /** The alternatives are a oneOf: exactly one applies. */
  exclusive?: boolean;
  /** The schema was cut off here (a cycle, or too deep); see `refName`. */
  truncated?: boolean;
};

/**
 * One limit of a schema. `unit` counts characters of a string or items of an array; without it
 * the limit is on the number itself. `default` carries the default as JSON.
 */
export type Limit =
  | { kind: "exactly"; n: number; unit: "character" | "item" }
  | { kind: "between"; min: number; max: number; unit?: "character" | "item" }
  | { kind: "atLeast" | "atMost"; n: number; unit?: "character" | "item" }
  | { kind: "moreThan" | "lessThan"; n: number }
  | { kind: "pattern" | "default"; value: string };

export type FieldView = { name: string; required: boolean; schema: SchemaView };

export type ParameterView = { name: string; in: "path" | "query" | "header" | "cookie"; required: boolean; description?: string; schema: SchemaView };

export type HeaderView = { name: string; required: boolean; description?: string; schema?: SchemaView };

export type BodyView = { mediaType: string; required: boolean; description?: string; schema?: SchemaView };

export type ResponseView = {
  status: string;
  description: string;
  /** The shared response component (`NotFound`), when it is one. */
  refName?: string;
  headers: HeaderView[];
  bodies: BodyView[];
};

export type OperationView = {
  /** Anchor of the operation on the page. */
  anchor: string;
  operationId?: string;
  method: string;
  path: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  /** "none" when no token is needed; otherwise the security scheme names. */
  auth: "none" | string[];
  scopes: string[];
  parameters: ParameterView[];
  requestBody?: BodyView;
  responses: ResponseView[];
  curl?: string;
};

/** `untagged`: the operations the document gave no tag, gathered under "Other" (a word of the page, not the document). */
type TagView = { name: string; anchor: string; description?: string; untagged?: boolean; operations: OperationView[] };

type ComponentSchemaView = { name: string; anchor: string; schema: SchemaView };

type SharedResponseView = ResponseView & { anchor: string };

export const responseAnchor = (name: string) => `response-${slug(name)}`;

export type ReferenceView = {
  title: string;
  version: string;
  description?: string;
  license?: string;
  baseUrl: string;
  securitySchemes: { name: string; description?: string; scheme: string }[];
  tags: TagView[];
  webhooks: OperationView[];
  /** Responses shared by many operations (the error answers), described once. */
  responses: SharedResponseView[];
  schemas: ComponentSchemaView[];
};

const METHODS = ["get", "post", "put", "patch", "delete", "head", "options", "trace"] as const;
const MAX_DEPTH = 6;

export const slug = (value: string) =>
  value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "") || "section";

export const schemaAnchor = (name: string) => `schema-${slug(name)}`;

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

const asString = (value: unknown) => (typeof value === "string" ? value : undefined);

class Resolver {
  constructor(private readonly doc: OpenApiDoc) {}

  /** Follows a local `$ref` (`#/components/...`); returns the target and its component name. */
  deref(value: unknown): { node: JsonObject; refName?: string } {
    let node = value;
    let refName: string | undefined;
    const visited = new Set<string>();
    while (isObject(node) && typeof node.$ref === "string") {
      const ref = node.$ref;
      if (visited.has(ref) || !ref.startsWith("#/")) break;
      visited.add(ref);
      const parts = ref
        .slice(2)
        .split("/")
        .map((part) => decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~"));
      refName = parts[parts.length - 1];
      node = parts.reduce<unknown>((current, key) => (isObject(current) ? current[key] : undefined), this.doc);
    }
    return { node: isObject(node) ? node : {}, refName };
  }
}

function typeLabel(schema: JsonObject): { type: string; nullable: boolean } {
  const raw = schema.type;
  const types = Array.isArray(raw) ? raw.filter((t): t is string => typeof t === "string") : typeof raw === "string" ? [raw] : [];
  const nullable = types.includes("null");
  const rest = types.filter((t) => t !== "null");
  if (rest.length > 0) return { type: rest.join(" or "), nullable };
  if (schema.properties) return { type: "object", nullable };
  if (schema.items) return { type: "array", nullable };
  if (schema.anyOf || schema.oneOf) return { type: schema.oneOf ? "one of" : "any of", nullable };
  if (schema.enum || schema.const !== undefined) return { type: typeof (schema.const ?? (schema.enum as Json[])[0]), nullable };
  if (schema.contentMediaType) return { type: "bytes", nullable };
  return { type: "any", nullable };
}

function constraintsOf(schema: JsonObject, type: string): Limit[] {
  const out: Limit[] = [];
  const num = (key: string) => (typeof schema[key] === "number" ? (schema[key] as number) : undefined);
  const range = (min: number | undefined, max: number | undefined, unit: "character" | "item") => {
    if (min !== undefined && max !== undefined) out.push(min === max ? { kind: "exactly", n: min, unit } : { kind: "between", min, max, unit });
    else if (min !== undefined && min > 0) out.push({ kind: "atLeast", n: min, unit });
    else if (max !== undefined) out.push({ kind: "atMost", n: max, unit });
  };
  if (type.includes("string")) range(num("minLength"), num("maxLength"), "character");
  if (type.includes("array")) range(num("minItems"), num("maxItems"), "item");
  const min = num("minimum");
  const max = num("maximum");
  if (min !== undefined && max !== undefined) out.push({ kind: "between", min, max });
  else if (min !== undefined) out.push({ kind: "atLeast", n: min });
  else if (max !== undefined) out.push({ kind: "atMost", n: max });
  const above = num("exclusiveMinimum");
  const below = num("exclusiveMaximum");
  if (above !== undefined) out.push({ kind: "moreThan", n: above });
  if (below !== undefined) out.push({ kind: "lessThan", n: below });
  if (typeof schema.pattern === "string") out.push({ kind: "pattern", value: schema.pattern });
  if (schema.default !== undefined) out.push({ kind: "default", value: JSON.stringify(schema.default) });
  return out;
}

type DescribeOptions = { depth?: number; seen?: string[]; /** Nested components as links rather than inline (the schemas section). */ linkNested?: boolean };

function describeSchema(resolver: Resolver, value: unknown, options: DescribeOptions = {}): SchemaView {
  const { depth = 0, seen = [], linkNested = false } = options;
  const ref = isObject(value) && typeof value.$ref === "string" ? value.$ref : undefined;
  const { node, refName } = resolver.deref(value);
  if (ref && (seen.includes(ref) || depth > MAX_DEPTH || (linkNested && depth > 0))) {
    const { type, nullable } = typeLabel(node);
    return { type, refName, nullable, constraints: [], ...(asString(node.description) ? { description: asString(node.description) } : {}), truncated: true };
  }
  const trail = ref ? [...seen, ref] : seen;

  // `anyOf: [X, {type: "null"}]` is how a nullable reference is written: show X, nullable.
  const alternatives = (node.anyOf ?? node.oneOf) as Json[] | undefined;
  if (Array.isArray(alternatives)) {
    const nonNull = alternatives.filter((alt) => !(isObject(alt) && alt.type === "null"));
    if (nonNull.length === 1 && nonNull.length < alternatives.length) {
      const inner = describeSchema(resolver, nonNull[0], { depth, seen: trail, linkNested });
      return { ...inner, nullable: true, description: asString(node.description) ?? inner.description };
    }
  }

  const { type, nullable } = typeLabel(node);
  const view: SchemaView = {
    type,
    nullable,
    constraints: constraintsOf(node, type),
    ...(refName ? { refName } : {}),
    ...(asString(node.title) ? { title: asString(node.title) } : {}),
    ...(asString(node.description) ? { description: asString(node.description) } : {}),
  };
  const format = asString(node.format) ?? asString(node.contentMediaType) ?? asString(node.contentEncoding);
  if (format) view.format = format;
  if (Array.isArray(node.enum)) view.values = node.enum;
  else if (node.const !== undefined) view.values = [node.const];
  if (node.example !== undefined) view.example = node.example;
  else if (Array.isArray(node.examples) && node.examples.length > 0) view.example = node.examples[0];

  if (isObject(node.properties)) {
    const required = new Set(Array.isArray(node.required) ? node.required.filter((r): r is string => typeof r === "string") : []);
    view.fields = Object.entries(node.properties).map(([name, property]) => ({
      name,
      required: required.has(name),
      schema: describeSchema(resolver, property, { depth: depth + 1, seen: trail, linkNested }),
    }));
  }
  if (node.additionalProperties === true || (isObject(node.additionalProperties) && Object.keys(node.additionalProperties).length === 0)) {
    view.additional = true;
  } else if (isObject(node.additionalProperties)) {
    view.additional = describeSchema(resolver, node.additionalProperties, { depth: depth + 1, seen: trail, linkNested });
  } else if (node.additionalProperties === undefined && view.type === "object" && !view.fields && !Array.isArray(alternatives)) {
    view.additional = true;
  }
  if (node.items !== undefined) view.items = describeSchema(resolver, node.items, { depth: depth + 1, seen: trail, linkNested });
  if (Array.isArray(alternatives)) view.variants = alternatives.map((alt) => describeSchema(resolver, alt, { depth: depth + 1, seen: trail, linkNested }));
  if (Array.isArray(node.oneOf)) view.exclusive = true;
  return view;
}

/**
 * An example value for a schema: its own example, else one built from its fields. A request
 * shows the optional fields that have an example; an answer (`requiredOnly`) only what is
 * always there, so it never shows fields that exclude each other.
 */
export function exampleOf(schema: SchemaView, { requiredOnly = false, depth = 0 }: { requiredOnly?: boolean; depth?: number } = {}): Json {
  if (schema.example !== undefined) return schema.example;
  if (schema.values && schema.values.length > 0) return schema.values[0];
  if (depth > MAX_DEPTH) return null;
  const next = { requiredOnly, depth: depth + 1 };
  if (schema.variants && schema.variants.length > 0) return exampleOf(schema.variants[0], next);
  if (schema.fields) {
    const out: JsonObject = {};
    for (const field of schema.fields) {
      if (!field.required && (requiredOnly || field.schema.example === undefined)) continue;
      out[field.name] = exampleOf(field.schema, next);
    }
    return out;
  }
  if (schema.items) return [exampleOf(schema.items, next)];
  if (schema.type.includes("integer") || schema.type.includes("number")) return 1;
  if (schema.type.includes("boolean")) return true;
  if (schema.type === "object") return {};
  if (schema.format === "date-time") return "2026-11-22T10:15:30.123Z";
  if (schema.nullable && schema.type === "any") return null;
  return "string";
}

const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

function curlFor({ baseUrl, method, path, parameters, body, auth }: { baseUrl: string; method: string; path: string; parameters: ParameterView[]; body?: BodyView; auth: OperationView["auth"] }) {
  const valueOf = (parameter: ParameterView) => {
    const example = exampleOf(parameter.schema);
    return typeof example === "string" ? example : JSON.stringify(example);
  };
  let url = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const parameter = parameters.find((p) => p.in === "path" && p.name === name);
    return encodeURIComponent(parameter ? valueOf(parameter) : name);
  });
  const query = parameters.filter((p) => p.in === "query" && p.required).map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(valueOf(p))}`);
  if (query.length) url += `?${query.join("&")}`;
  const lines = [`curl -X ${method.toUpperCase()} ${shellQuote(baseUrl + url)}`];
  if (auth !== "none") lines.push(`-H "Authorization: Bearer $TOKEN"`);
  for (const header of parameters.filter((p) => p.in === "header" && (p.required || p.name === "Idempotency-Key"))) {
    lines.push(`-H ${shellQuote(`${header.name}: ${valueOf(header)}`)}`);
  }
  if (body?.schema && body.mediaType.endsWith("json")) {
    lines.push(`-H "Content-Type: ${body.mediaType}"`);
    lines.push(`-d ${shellQuote(JSON.stringify(exampleOf(body.schema), null, 2))}`);
  }
  return lines.join(" \\\n  ");
}

function headersOf(resolver: Resolver, headers: unknown): HeaderView[] {
  if (!isObject(headers)) return [];
  return Object.entries(headers).map(([name, value]) => {
    const { node, refName } = resolver.deref(value);
    return {
      name,
      required: node.required === true,
      ...(asString(node.description) ? { description: asString(node.description) } : {}),
      // Shared headers (X-Request-Id, RateLimit-*) are plain strings: their description says it all.
      ...(node.schema !== undefined && !refName ? { schema: describeSchema(resolver, node.schema) } : {}),
    };
  });
}

function bodiesOf(resolver: Resolver, content: unknown, required: boolean, description?: string, options: DescribeOptions = {}): BodyView[] {
  if (!isObject(content)) return [];
  return Object.entries(content).map(([mediaType, media]) => {
    const schema = isObject(media) && media.schema !== undefined ? describeSchema(resolver, media.schema, options) : undefined;
    return { mediaType, required, ...(description ? { description } : {}), ...(schema ? { schema } : {}) };
  });
}

/**
 * A response. A shared one (a `$ref` to components/responses, such as the error answers) is
 * `shallow` inside an operation: its headers and body are shown once, in the shared section.
 */
function responseView(resolver: Resolver, status: string, value: unknown, { shallow, linkBody = false }: { shallow: boolean; linkBody?: boolean }): ResponseView {
  const { node, refName } = resolver.deref(value);
  const linked = (shallow && refName !== undefined) || linkBody;
  return {
    status,
    description: asString(node.description) ?? "",
    ...(refName ? { refName } : {}),
    headers: shallow && refName !== undefined ? [] : headersOf(resolver, node.headers),
    // Linked: the body is named (the Error schema), not spelled out again.
    bodies: bodiesOf(resolver, node.content, false, undefined, linked ? { linkNested: true, depth: 1 } : {}),
  };
}

function operationView(
  resolver: Resolver,
  doc: OpenApiDoc,
  { method, path, operation, pathItem, baseUrl, anchorPrefix }: { method: string; path: string; operation: JsonObject; pathItem: JsonObject; baseUrl: string; anchorPrefix: string },
): OperationView {
  const parameters: ParameterView[] = [...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []), ...(Array.isArray(operation.parameters) ? operation.parameters : [])].map((raw) => {
    const { node } = resolver.deref(raw);
    const location = (asString(node.in) ?? "query") as ParameterView["in"];
    return {
      name: asString(node.name) ?? "",
      in: location,
      required: location === "path" || node.required === true,
      ...(asString(node.description) ? { description: asString(node.description) } : {}),
      schema: describeSchema(resolver, node.schema ?? {}),
    };
  });
  const rawBody = operation.requestBody !== undefined ? resolver.deref(operation.requestBody).node : undefined;
  const requestBody = rawBody ? bodiesOf(resolver, rawBody.content, rawBody.required === true, asString(rawBody.description))[0] : undefined;
  const responses: ResponseView[] = Object.entries(isObject(operation.responses) ? operation.responses : {}).map(([status, value]) =>
    responseView(resolver, status, value, { shallow: true }),
  );
  const security = (operation.security ?? doc.security ?? []) as Record<string, string[]>[];
  const auth: OperationView["auth"] = security.length === 0 ? "none" : [...new Set(security.flatMap((s) => Object.keys(s)))];
  const scopes = Array.isArray(operation["x-required-scopes"]) ? operation["x-required-scopes"].filter((s): s is string => typeof s === "string") : [];
  const operationId = asString(operation.operationId);
  return {
    anchor: `${anchorPrefix}${slug(operationId ?? `${method}-${path}`)}`,
    ...(operationId ? { operationId } : {}),
    method: method.toUpperCase(),
    path,
    ...(asString(operation.summary) ? { summary: asString(operation.summary) } : {}),
    ...(asString(operation.description) ? { description: asString(operation.description) } : {}),
    deprecated: operation.deprecated === true,
    auth,
    scopes,
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses,
    ...(anchorPrefix === "op-" ? { curl: curlFor({ baseUrl, method, path, parameters, body: requestBody, auth }) } : {}),
  };
}

function operationsOf(resolver: Resolver, doc: OpenApiDoc, paths: Record<string, Record<string, unknown>>, baseUrl: string, anchorPrefix: string) {
  return Object.entries(paths).flatMap(([path, item]) => {
    const pathItem = isObject(item) ? item : {};
    return METHODS.flatMap((method) => {
      const operation = pathItem[method];
      if (!isObject(operation)) return [];
      const tags = Array.isArray(operation.tags) ? operation.tags.filter((t): t is string => typeof t === "string") : [];
      return [{ tags, view: operationView(resolver, doc, { method, path, operation, pathItem, baseUrl, anchorPrefix }) }];
    });
  });
}

/** The reference of a document, served from `origin` (e.g. `https://chorus.example.com`). */
export function buildReference(doc: OpenApiDoc, { origin }: { origin: string }): ReferenceView {
  const resolver = new Resolver(doc);
  const server = doc.servers?.[0]?.url ?? "/";
  const baseUrl = origin.replace(/\/+$/, "") + (server === "/" ? "" : server.replace(/\/+$/, ""));

  const operations = operationsOf(resolver, doc, doc.paths ?? {}, baseUrl, "op-");
  const declared = doc.tags ?? [];
  const names = [...declared.map((t) => t.name), ...operations.flatMap((o) => (o.tags.length ? o.tags : ["Other"]))];
  const tags: TagView[] = [...new Set(names)]
    .map((name) => ({
      name,
      anchor: `tag-${slug(name)}`,
      ...(name === "Other" && !declared.some((t) => t.name === "Other") ? { untagged: true } : {}),
      ...(declared.find((t) => t.name === name)?.description ? { description: declared.find((t) => t.name === name)!.description } : {}),
      operations: operations.filter((o) => (o.tags.length ? o.tags[0] === name : name === "Other")).map((o) => o.view),
    }))
    .filter((tag) => tag.operations.length > 0);

  const webhooks = operationsOf(resolver, doc, doc.webhooks ?? {}, baseUrl, "webhook-").map(({ view }) => view);

  const securitySchemes = Object.entries(isObject(doc.components?.securitySchemes) ? (doc.components!.securitySchemes as JsonObject) : {}).map(([name, value]) => {
    const { node } = resolver.deref(value);
    const scheme = [asString(node.scheme), asString(node.bearerFormat)].filter(Boolean).join(", ") || (asString(node.type) ?? "");
    return { name, scheme, ...(asString(node.description) ? { description: asString(node.description) } : {}) };
  });

  const componentSchemas = isObject(doc.components?.schemas) ? (doc.components!.schemas as JsonObject) : {};
  const schemas = Object.keys(componentSchemas)
    .sort((a, b) => a.localeCompare(b))
    .map((name) => ({ name, anchor: schemaAnchor(name), schema: describeSchema(resolver, { $ref: `#/components/schemas/${name}` }, { linkNested: true }) }));

  const componentResponses = isObject(doc.components?.responses) ? (doc.components!.responses as JsonObject) : {};
  // Their headers and body are spelled out here; the body's schema is linked, not repeated.
  const responses = Object.entries(componentResponses).map(([name, value]) => ({
    ...responseView(resolver, name, value, { shallow: false, linkBody: true }),
    refName: name,
    anchor: responseAnchor(name),
  }));

  const license = doc.info.license ? doc.info.license.identifier ?? doc.info.license.name : undefined;
  return {
    title: doc.info.title,
    version: doc.info.version,
    ...(doc.info.description ? { description: doc.info.description } : {}),
    ...(license ? { license } : {}),
    baseUrl,
    securitySchemes,
    tags,
    webhooks,
    responses,
    schemas,
  };
}
