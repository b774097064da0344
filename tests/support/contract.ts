import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

export type OpenApiDocument = {
  servers?: { url: string }[];
  paths: Record<string, Record<string, any>>;
  webhooks?: Record<string, Record<string, any>>;
  components?: Record<string, Record<string, any>>;
  [key: string]: unknown;
};

export type CheckedResponse = { status: number; headers: Headers; text: string; body: any };

const HTTP_METHODS = ["get", "put", "post", "delete", "patch"] as const;

const pointer = (...tokens: string[]) =>
  "#" + tokens.map((t) => "/" + encodeURIComponent(t.replace(/~/g, "~0").replace(/\//g, "~1"))).join("");

const mediaType = (contentType: string | null) => (contentType ?? "").split(";")[0].trim().toLowerCase();

/** Reads a body; an event stream is endless, so only its first chunk is read. */
async function readBody(res: Response): Promise<string> {
  if (!res.body) return "";
  if (mediaType(res.headers.get("content-type")) !== "text/event-stream") return res.text();
  const reader = res.body.getReader();
  const { value } = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(value);
}

/**
 * Checks real answers against an OpenAPI document: the status must be documented for the
 * operation, the content type must be one it lists, a JSON body must match its schema
 * (ajv, draft 2020-12), required headers must be present. Records what it checked.
 */
export class Contract {
  readonly checked = new Set<string>();
  /** Webhook (event type) names whose bodies were checked. */
  readonly checkedWebhooks = new Set<string>();
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly prefix: string;

  constructor(
    readonly name: string,
    readonly doc: OpenApiDocument,
  ) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    this.ajv.addSchema(doc, name);
    const server = doc.servers?.[0]?.url ?? "/";
    this.prefix = server === "/" ? "" : server.replace(/\/$/, "");
  }

  /** Every documented operation, as `METHOD /template`. */
  operations(): string[] {
    return Object.entries(this.doc.paths).flatMap(([template, item]) =>
      HTTP_METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${this.prefix}${template}`),
    );
  }

  /** The documented template for a concrete path; literal segments win over parameters. */
  templateFor(pathname: string): string | undefined {
    if (!pathname.startsWith(this.prefix)) return undefined;
    const local = pathname.slice(this.prefix.length);
    const candidates = Object.keys(this.doc.paths)
      .filter((template) => new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`).test(local))
      .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
    return candidates[0];
  }

  private resolve<T = any>(value: any): T {
    let current = value;
    while (current && typeof current.$ref === "string") {
      const parts = current.$ref.replace(/^#\//, "").split("/").map((p: string) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
      current = parts.reduce((node: any, key: string) => node?.[key], this.doc);
    }
    return current as T;
  }

  private validator(ref: string): ValidateFunction {
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = this.ajv.getSchema(`${this.name}${ref}`);
      if (!validate) throw new Error(`${this.name}: no schema at ${ref}`);
      this.validators.set(ref, validate);
    }
    return validate;
  }

  /**
   * Checks a body sent to a webhook receiver against the document's `webhooks` entry of
   * that name (its JSON request body); returns the problems found.
   */
  checkWebhook(name: string, body: unknown): string[] {
    const operation = this.doc.webhooks?.[name]?.post;
    if (!operation) return [`webhook ${name}: not documented`];
    const content = this.resolve(operation.requestBody)?.content as Record<string, unknown> | undefined;
    if (!content?.["application/json"]) return [`webhook ${name}: no JSON body documented`];
    this.checkedWebhooks.add(name);
    const validate = this.validator(pointer("webhooks", name, "post", "requestBody", "content", "application/json", "schema"));
    if (validate(body)) return [];
    return [`webhook ${name}: body does not match the schema: ${this.ajv.errorsText(validate.errors, { separator: "; " })} — body ${JSON.stringify(body).slice(0, 300)}`];
  }

  /** Checks one answer; returns the problems found (none when it matches the document). */
  async check(method: string, pathname: string, res: Response): Promise<{ problems: string[]; result: CheckedResponse }> {
    const text = await readBody(res);
    const type = mediaType(res.headers.get("content-type"));
    let body: unknown = undefined;
    if (type.endsWith("json") && text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    } else if (text) body = text;
    const result = { status: res.status, headers: res.headers, text, body };

    const label = `${method.toUpperCase()} ${pathname} → ${res.status}`;
    const template = this.templateFor(pathname);
    if (!template) return { problems: [`${label}: path not documented`], result };
    const operation = this.doc.paths[template][method.toLowerCase()];
    if (!operation) return { problems: [`${label}: ${method.toUpperCase()} ${template} not documented`], result };

    const status = String(res.status);
    const key = [status, `${status[0]}XX`, "default"].find((k) => operation.responses[k]);
    if (!key) return { problems: [`${label}: status not documented for ${method.toUpperCase()} ${template}`], result };
    this.checked.add(`${method.toUpperCase()} ${this.prefix}${template} ${key}`);

    const problems: string[] = [];
    const responseRef = operation.responses[key].$ref as string | undefined;
    const response = this.resolve(operation.responses[key]);
    const base = responseRef ? responseRef.replace(/^#\//, "").split("/") : ["paths", template, method.toLowerCase(), "responses", key];

    for (const [name, header] of Object.entries<any>(response.headers ?? {})) {
      if (this.resolve(header).required && !res.headers.has(name)) problems.push(`${label}: missing required header ${name}`);
    }

    const content = response.content as Record<string, unknown> | undefined;
    if (!content) {
      if (text !== "") problems.push(`${label}: documented without a body, got ${JSON.stringify(text.slice(0, 100))}`);
      return { problems, result };
    }
    const documentedType = Object.keys(content).find((t) => t === type || t === "*/*");
    if (!documentedType) {
      problems.push(`${label}: content type ${JSON.stringify(type)} not documented (${Object.keys(content).join(", ")})`);
      return { problems, result };
    }
    if (documentedType.endsWith("json")) {
      const validate = this.validator(pointer(...base, "content", documentedType, "schema"));
      if (!validate(body)) {
        problems.push(`${label}: body does not match the schema: ${this.ajv.errorsText(validate.errors, { separator: "; " })} — body ${text.slice(0, 300)}`);
      }
    }
    return { problems, result };
  }
}
