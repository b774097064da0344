import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { createSession } from "@/lib/auth/sessions";
import { resetEnvCache } from "@/lib/platform/env";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { Contract, type OpenApiDocument } from "@/tests/support/contract";
import { createTestAccount } from "@/tests/support/fixtures";
import { createDispatchFetch } from "@/tests/support/route-table";
import { systemContext } from "@/lib/server/context";

/**
 * Property-based fuzzing of every operation of the served OpenAPI documents, as an outside
 * integrator runs it: requests are generated from each operation's own schemas (path ids,
 * query, body), valid-ish and hostile (odd Unicode, huge numbers, wrong types, bad escapes,
 * missing and extra fields, other content types). Every answer must be documented for the
 * operation, match its schema, and never be a 5xx. Fixed seed and bounded runs: repeatable.
 */

const SEED = 20_261_126;
const RUNS_PER_OPERATION = 25;
// One request that takes this long is stuck, not slow.
const REQUEST_TIMEOUT_MS = 30_000;
// The test's own time limit grows with the number of requests it sends: on average each may
// take this long (a slow, shared CI machine), beyond a fixed minute for the set-up.
const MEAN_REQUEST_BUDGET_MS = 1_000;

const dispatch = createDispatchFetch(["v1", "plant-store"]);

type Schema = Record<string, any>;
type Operation = { contract: Contract; prefix: string; method: string; template: string; op: Schema };
type Generated = { path: string; query: string; headers: Record<string, string>; body?: string };

// ---------------------------------------------------------------------------------------------
// Hostile values

const oddStrings = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "%",
  "%E0%A4%A",
  "%00",
  "½",
  "⑴",
  "ab½",
  "&|!():*",
  "'\"\\",
  "\uD800",
  "\uDFFF\uD800",
  "\u202Eevil",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  "👩‍👩‍👧‍👦",
  "ﬁ",
  "İ",
  "\r\n\t",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "'; drop table users; --",
  "NaN",
  "-0",
  "1e309",
  "null",
  "true",
  "x".repeat(5_000),
  "é".repeat(300),
];
const oddString = fc.oneof(fc.constantFrom(...oddStrings), fc.string({ unit: "binary", maxLength: 40 }), fc.string({ unit: "grapheme", maxLength: 40 }));
const oddNumber = fc.constantFrom(0, -1, 1.5, -0.000001, 1e308, -1e308, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER * 1000, 2 ** 31, -(2 ** 63));
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  oddString,
  oddNumber,
  fc.constantFrom(true, false, null, [], {}, [null], { "": "" }, { __proto__: 1 }, { constructor: { prototype: 1 } }),
  fc.jsonValue({ maxDepth: 3 }),
);
const oddSegment = fc.oneof(
  fc.constantFrom("%", "%E0%A4%A", "%00", "abc%00", "%FF", "%C0%AF", "...", "%2F", "%20", "x".repeat(400), "conv_%00", "usr_" + "0".repeat(26), "0", "-1", "1e3", "99999999999999999999"),
  // A segment of dots would be resolved away by the URL (another address): never sent as one.
  oddString.map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, "x")).replace(/^\.{1,2}$/, "x") || "x"),
);

// ---------------------------------------------------------------------------------------------
// Values from a schema

function resolve(doc: OpenApiDocument, schema: Schema | undefined): Schema | undefined {
  let current = schema;
  for (let i = 0; current && typeof current.$ref === "string" && i < 20; i++) {
    const parts = current.$ref.replace(/^#\//, "").split("/").map((p: string) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
    current = parts.reduce((node: any, key: string) => node?.[key], doc);
  }
  return current;
}

function stringFor(schema: Schema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? 30, 60));
  if (schema.format === "date-time") return fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === "date") return fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  if (schema.format === "email") return fc.emailAddress();
  if (schema.format === "uri") return fc.webUrl();
  if (typeof schema.pattern === "string") {
    try {
      return fc.stringMatching(new RegExp(schema.pattern, "u"), { size: "xsmall" });
    } catch {
      // A pattern JavaScript cannot read: plain text instead.
    }
  }
  return fc.string({ minLength: min, maxLength: max });
}

function valueFor(doc: OpenApiDocument, input: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(doc, input);
  if (!schema || depth > 6) return fc.constant(null);
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives) && alternatives.length) return fc.oneof(...alternatives.map((s: Schema) => valueFor(doc, s, depth + 1)));
  if (Array.isArray(schema.allOf) && schema.allOf.length) return valueFor(doc, Object.assign({}, ...schema.allOf.map((s: Schema) => resolve(doc, s))), depth + 1);
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : schema.properties ? ["object"] : [];
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case "null":
          return fc.constant(null);
        case "boolean":
          return fc.boolean();
        case "integer": {
          const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1_000_000);
          const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1_000_000);
          return fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) });
        }
        case "number":
          return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
        case "string":
          return stringFor(schema);
        case "array":
          return fc.array(valueFor(doc, schema.items, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)) });
        case "object": {
          const properties: Record<string, Schema> = schema.properties ?? {};
          const required: string[] = schema.required ?? [];
          const record: Record<string, fc.Arbitrary<unknown>> = {};
          for (const [key, child] of Object.entries(properties)) record[key] = valueFor(doc, child, depth + 1);
          return fc.record(record, { requiredKeys: required.filter((k) => k in record) });
        }
        default:
          return fc.jsonValue({ maxDepth: 2 });
      }
    }),
  );
}

/** A value of the schema, or one broken on purpose: a field dropped, retyped or added, or something else entirely. */
function hostileFor(doc: OpenApiDocument, schema: Schema | undefined): fc.Arbitrary<unknown> {
  const valid = valueFor(doc, schema);
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    {
      weight: 4,
      arbitrary: fc.tuple(valid, fc.nat(), oddValue, fc.constantFrom("drop", "retype", "extra")).map(([value, n, odd, how]) => {
        if (!value || typeof value !== "object" || Array.isArray(value)) return odd;
        const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
        const keys = Object.keys(copy);
        if (how === "extra" || keys.length === 0) copy[`extra_${n % 7}`] = odd;
        else if (how === "drop") delete copy[keys[n % keys.length]];
        else copy[keys[n % keys.length]] = odd;
        return copy;
      }),
    },
    { weight: 2, arbitrary: oddValue },
  );
}

function parameterValue(doc: OpenApiDocument, schema: Schema | undefined): fc.Arbitrary<string> {
  return valueFor(doc, schema).map((v) => (typeof v === "string" ? v : JSON.stringify(v) ?? ""));
}

// ---------------------------------------------------------------------------------------------
// Requests from an operation

function requestsFor({ contract, prefix, template, op }: Operation): fc.Arbitrary<Generated> {
  const doc = contract.doc;
  const parameters: Schema[] = (op.parameters ?? []).map((p: Schema) => resolve(doc, p)!);
  const pathParams = parameters.filter((p) => p.in === "path");
  const queryParams = parameters.filter((p) => p.in === "query");
  const headerParams = parameters.filter((p) => p.in === "header");

  const path = fc
    .tuple(...pathParams.map((p) => fc.oneof({ weight: 3, arbitrary: parameterValue(doc, p.schema).map((v) => encodeURIComponent(v).replace(/^\.{1,2}$/, "x") || "x") }, { weight: 2, arbitrary: oddSegment })))
    .map((values) => prefix + pathParams.reduce((t, p, i) => t.replace(`{${p.name}}`, values[i]), template));

  const query = fc
    .tuple(
      ...queryParams.map((p) =>
        fc.option(fc.oneof({ weight: 3, arbitrary: parameterValue(doc, p.schema) }, { weight: 1, arbitrary: oddString.map((s) => s.replace(/[\uD800-\uDFFF]/g, "x")) }), { nil: undefined, freq: 3 }),
      ),
      fc.option(fc.constantFrom("%", "q=%E0%A4%A", "limit=1e400", "cursor=%00", "limit=-1&limit=2", "extra=1"), { nil: undefined, freq: 4 }),
    )
    .map((values) => {
      const raw = values.pop() as string | undefined;
      const search = new URLSearchParams();
      queryParams.forEach((p, i) => {
        if (values[i] !== undefined) search.append(p.name, values[i] as string);
      });
      return [search.toString(), raw].filter(Boolean).join("&");
    });

  const headers = fc.tuple(
    ...headerParams.map((p) => fc.option(fc.oneof(parameterValue(doc, p.schema), fc.constantFrom("", " ", "é", "x".repeat(300))), { nil: undefined })),
    fc.constantFrom("application/json", "application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", undefined),
  ).map((values) => {
    const contentType = values.pop();
    const out: Record<string, string> = {};
    headerParams.forEach((p, i) => {
      const v = values[i];
      // fetch refuses header values outside Latin-1 and line breaks: a client cannot send them.
      if (v !== undefined && /^[\x20-\x7e]*$/.test(v)) out[p.name] = v;
    });
    if (contentType) out["content-type"] = contentType;
    return out;
  });

  const content = resolve(doc, op.requestBody)?.content as Record<string, Schema> | undefined;
  const bodySchema = content?.["application/json"]?.schema;
  const body = bodySchema
    ? fc.oneof(
        { weight: 8, arbitrary: hostileFor(doc, bodySchema).map((v) => JSON.stringify(v) ?? "null") },
        { weight: 1, arbitrary: fc.constantFrom("", "{", "[1,", "\u0000", `${"[".repeat(3_000)}${"]".repeat(3_000)}`, `{"a":${"{\"a\":".repeat(100)}1${"}".repeat(101)}`, "1".repeat(400)) },
      )
    : fc.constant(undefined);

  return fc.record({ path, query, headers, body }).map((r) => ({ ...r, body: r.body as string | undefined }));
}

// ---------------------------------------------------------------------------------------------

// The documents as served, the way the contract test and a client generator read them; read
// before the test is declared, so that its time limit follows the number of operations.
const served = async (path: string) => {
  const res = await dispatch(new Request(`http://localhost${path}`));
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  return (await res.json()) as OpenApiDocument;
};
const v1 = new Contract("v1.json", await served("/v1/openapi.json"));
const plants = new Contract("plant-store.json", await served("/plant-store/openapi.json"));

afterAll(() => resetRateLimiters());

function operationsOf(contract: Contract): Operation[] {
  const prefix = (contract.doc.servers?.[0]?.url ?? "/").replace(/\/$/, "");
  return Object.entries(contract.doc.paths).flatMap(([template, item]) =>
    (["get", "put", "post", "patch", "delete"] as const).filter((m) => item[m]).map((method) => ({ contract, prefix, method, template, op: item[method] })),
  );
}

async function send(method: string, url: string, init: RequestInit): Promise<Response> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)), REQUEST_TIMEOUT_MS);
  });
  try {
    return await Promise.race([dispatch(new Request(url, { method, ...init })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const operations = [...operationsOf(v1), ...operationsOf(plants)];

describe("fuzzing every operation of the served documents", () => {
  const timeout = 60_000 + operations.length * RUNS_PER_OPERATION * MEAN_REQUEST_BUDGET_MS;
  it("answers every generated request with a documented status and body, never a 5xx", { timeout }, async () => {
    process.env.RATE_LIMIT_PER_MINUTE = "100000";
    resetEnvCache();
    expect(operations.length).toBeGreaterThan(40);
    const problems: string[] = [];
    let sent = 0;
    // One account for the whole run (one password hash); a fresh administrator session per
    // operation, so one that signs out or revokes tokens cannot starve the next.
    const { admin } = await createTestAccount();
    for (const [index, operation] of operations.entries()) {
      const { token: adminToken } = await createSession(systemContext().db, { user: admin });
      await resetRateLimiters();
      const samples = fc.sample(requestsFor(operation), { seed: SEED + index, numRuns: RUNS_PER_OPERATION });
      for (const [n, generated] of samples.entries()) {
        const token = n === 0 ? undefined : adminToken;
        const url = `http://localhost${generated.path}${generated.query ? `?${generated.query}` : ""}`;
        const label = `${operation.method.toUpperCase()} ${url.slice(16, 200)}${generated.body !== undefined ? ` body ${generated.body.slice(0, 120)}` : ""}`;
        let res: Response;
        try {
          res = await send(operation.method.toUpperCase(), url, {
            headers: { ...generated.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
            body: operation.method === "get" ? undefined : generated.body,
          });
        } catch (error) {
          problems.push(`${label}: threw ${(error as Error).message}`);
          continue;
        }
        sent++;
        const pathname = new URL(url).pathname;
        if (res.status >= 500) problems.push(`${label}: ${res.status}`);
        const checked = await operation.contract.check(operation.method, pathname, res);
        problems.push(...checked.problems.map((p) => `${p} [${label}]`));
      }
    }
    delete process.env.RATE_LIMIT_PER_MINUTE;
    resetEnvCache();
    expect(sent).toBeGreaterThan(operations.length * RUNS_PER_OPERATION * 0.9);
    expect(problems).toEqual([]);
  });
});
