import { createHash, createHmac, randomBytes, randomInt } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type RecordedRequest = {
  method: string;
  /** Path as requested, including the API version prefix (e.g. `/v21.0/123/messages`). */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Parsed JSON, multipart fields (a file becomes `{filename, mimeType, size}`), raw text, or undefined. */
  body: unknown;
};

export type StoredMedia = { id: string; bytes: Buffer; mimeType: string; filename?: string };

export type AcceptedMessage = {
  id: string;
  to: string;
  type: string;
  body: Record<string, unknown>;
  /** The send's `biz_opaque_callback_data`, which every status of the message hands back. */
  callbackData?: string;
};

type Failure = { status: number; body?: unknown; times: number; path?: RegExp };
type Delay = { ms: number; times: number; path?: RegExp };
type Redirect = { location: string; status: number; times: number; path?: RegExp };

export type FakeCloudNetwork = {
  /** Origin of the server, e.g. `http://127.0.0.1:51234`. */
  baseUrl: string;
  /** What the adapter should be configured with: the origin plus a Graph version prefix. */
  apiBaseUrl: string;
  phoneNumberId: string;
  accessToken: string;
  requests: RecordedRequest[];
  /** Messages the fake accepted, in order. */
  acceptedMessages: AcceptedMessage[];
  /** Read receipts (`status: "read"`) the fake accepted, with the typing indicator when one was asked for. */
  readReceipts: { messageId: string; typingIndicator?: { type: string } }[];
  /** The next `times` (default 1) requests, or those whose path matches, answer with this failure. */
  failNext(options: { status: number; body?: unknown; times?: number; path?: RegExp }): void;
  /** Every request fails until `recover()`. */
  failAll(options: { status: number; body?: unknown }): void;
  /** The next `times` (default 1) matching requests answer with a redirect (302 by default) to `location`. */
  redirectNext(options: { location: string; status?: number; times?: number; path?: RegExp }): void;
  /** Holds the next `times` (default 1) matching requests for `ms` before answering. */
  delayNext(options: { ms: number; times?: number; path?: RegExp }): void;
  recover(): void;
  /** Stores media as if a customer had sent it; returns the media id to put in an inbound payload. */
  addMedia(options: { bytes: Buffer; mimeType: string; filename?: string }): string;
  getMedia(mediaId: string): StoredMedia | undefined;
  /** The business account the fake serves templates and app subscriptions for. */
  businessAccountId: string;
  /** Templates submitted to `POST /{business_account_id}/message_templates`, by name. */
  templates: Map<string, FakeTemplate>;
  /** What the embedded sign-up checks: the app's id and secret, and the one code it accepts. */
  signup: { appId: string; appSecret: string; code: string };
  /** Whether `POST /{business_account_id}/subscribed_apps` was called, and the PIN `register` got. */
  subscribedApps: boolean;
  registeredPin: string | null;
  /** The id the next accepted message gets (so a test can send its status first). */
  setNextMessageId(id: string): void;
  /** The app whose resumable upload API (`/{app_id}/uploads`) the fake serves; `GET /app` answers it. */
  appId: string;
  /** Files uploaded through the resumable upload API, with the handle each got. */
  resumableUploads: ResumableUpload[];
  close(): Promise<void>;
};

/** A business-scoped user id: country code, period, up to 128 alphanumerics (`CC.ENT.…` for a parent id). */
const BSUID_PATTERN = /^[A-Z]{2}\.(?:ENT\.)?[A-Za-z0-9]{1,128}$/;

const SUPPORTED_TYPES = ["text", "image", "document", "audio", "video", "location", "reaction", "interactive", "template"] as const;

export type ResumableUpload = { sessionId: string; fileName: string; fileLength: number; fileType: string; bytes?: Buffer; handle?: string };

export type FakeTemplate = {
  id: string;
  name: string;
  language: string;
  category: string;
  components: Record<string, unknown>[];
  status: "PENDING" | "APPROVED" | "REJECTED";
};

const MEDIA_MIME_RULES: Record<string, (mimeType: string) => boolean> = {
  image: (mimeType) => mimeType === "image/jpeg" || mimeType === "image/png",
  video: (mimeType) => mimeType.startsWith("video/"),
  audio: (mimeType) => mimeType.startsWith("audio/"),
  document: () => true,
};

/**
 * The Graph API's rules for the action of a flow message (`interactive.type: "flow"`): name
 * "flow", flow_message_version "3", a flow_id or flow_name, a flow_cta of 1 to 20 characters,
 * and a flow_action_payload with a screen when flow_action is "navigate" (none otherwise).
 */
function flowActionProblem(action: Record<string, unknown>): string | null {
  if (action.name !== "flow") return 'interactive.action.name must be "flow"';
  const p = isRecord(action.parameters) ? action.parameters : null;
  if (!p) return "interactive.action.parameters is required";
  if (p.flow_message_version !== "3") return 'flow_message_version must be "3"';
  if (typeof p.flow_id !== "string" && typeof p.flow_name !== "string") return "flow_id or flow_name is required";
  if (typeof p.flow_cta !== "string" || p.flow_cta.length === 0 || p.flow_cta.length > 20) return "flow_cta must be 1 to 20 characters";
  if (p.flow_action !== undefined && p.flow_action !== "navigate" && p.flow_action !== "data_exchange") return "flow_action must be navigate or data_exchange";
  const payload = p.flow_action_payload;
  if (p.flow_action === "data_exchange" && payload !== undefined) return "flow_action_payload must be omitted for data_exchange";
  if (payload !== undefined && (!isRecord(payload) || typeof payload.screen !== "string")) return "flow_action_payload.screen is required";
  return null;
}

/** The Graph API's rules for an interactive list message; a problem as the network words it, or null. */
function checkInteractiveList(content: Record<string, unknown>): string | null {
  if (content.type !== "list") return "interactive.type must be list";
  const body = content.body as Record<string, unknown> | undefined;
  if (!body || typeof body.text !== "string" || body.text.length === 0 || body.text.length > 4096) return "interactive.body.text must be 1 to 4096 characters";
  const action = content.action as Record<string, unknown> | undefined;
  if (!action || typeof action.button !== "string" || action.button.length === 0 || action.button.length > 20) return "interactive.action.button must be 1 to 20 characters";
  const sections = action.sections;
  if (!Array.isArray(sections) || sections.length === 0 || sections.length > 10) return "interactive.action.sections must hold 1 to 10 sections";
  const rows = sections.flatMap((section) => (Array.isArray(section?.rows) ? section.rows : []));
  if (rows.length === 0 || rows.length > 10) return "a list holds 1 to 10 rows";
  for (const row of rows) {
    if (typeof row?.id !== "string" || row.id.length === 0 || row.id.length > 200) return "row id must be 1 to 200 characters";
    if (typeof row?.title !== "string" || row.title.length === 0 || row.title.length > 24) return "row title must be 1 to 24 characters";
  }
  return null;
}

/** The Graph API's rules for a template's components at creation; a problem as the network words it, or null. */
function checkTemplateDefinition({ components, handles }: { components: unknown[]; handles: Set<string> }): string | null {
  for (const component of components) {
    if (!isRecord(component)) return "components must be objects";
    if (component.type === "HEADER" && component.format !== "TEXT" && component.format !== "LOCATION") {
      if (!["IMAGE", "VIDEO", "DOCUMENT"].includes(String(component.format))) return `Unknown header format ${String(component.format)}`;
      const handle = isRecord(component.example) && Array.isArray(component.example.header_handle) ? component.example.header_handle[0] : undefined;
      if (typeof handle !== "string" || !handles.has(handle)) return "A media header needs example.header_handle from the resumable upload API";
    }
    if (component.type === "BUTTONS") {
      const buttons = Array.isArray(component.buttons) ? component.buttons : [];
      if (buttons.length === 0 || buttons.length > 10) return "A template has 1 to 10 buttons";
      for (const button of buttons) {
        if (!isRecord(button) || !["QUICK_REPLY", "URL", "PHONE_NUMBER", "COPY_CODE"].includes(String(button.type))) return `Unknown button type ${String(isRecord(button) ? button.type : button)}`;
        if (button.type === "URL" && /\{\{1\}\}/.test(String(button.url)) && !(Array.isArray(button.example) && typeof button.example[0] === "string")) return "A URL with a variable needs an example";
        if (button.type === "COPY_CODE" && typeof button.example !== "string") return "A COPY_CODE button needs an example";
        if (button.type === "PHONE_NUMBER" && typeof button.phone_number !== "string") return "A PHONE_NUMBER button needs phone_number";
      }
    }
  }
  return null;
}

/** Whether a template send gives what the template needs: its media header by uploaded id, its URL suffix and code. */
function checkTemplateParameters({ template, sent, isMedia }: { template: FakeTemplate; sent: unknown[]; isMedia: (id: string) => boolean }): string | null {
  const parts = sent.filter(isRecord);
  const header = template.components.find((c) => c.type === "HEADER");
  if (header && header.format !== "TEXT") {
    const parameter = parts.find((p) => p.type === "header")?.parameters;
    const first = Array.isArray(parameter) && isRecord(parameter[0]) ? parameter[0] : undefined;
    const kind = String(header.format).toLowerCase();
    if (!first || first.type !== kind || !isRecord(first[kind])) return `The ${String(header.format)} header needs a ${kind} parameter`;
    const value = first[kind] as Record<string, unknown>;
    if (kind !== "location" && (typeof value.id !== "string" || !isMedia(value.id))) return `The ${kind} header must name media uploaded to this number`;
  }
  const buttons = (template.components.find((c) => c.type === "BUTTONS")?.buttons ?? []) as Record<string, unknown>[];
  for (const [index, button] of buttons.entries()) {
    const needs = (button.type === "URL" && /\{\{1\}\}/.test(String(button.url))) || button.type === "COPY_CODE";
    if (!needs) continue;
    const given = parts.find((p) => p.type === "button" && String(p.index) === String(index));
    const parameter = Array.isArray(given?.parameters) && isRecord(given.parameters[0]) ? given.parameters[0] : undefined;
    if (button.type === "URL" && (given?.sub_type !== "url" || parameter?.type !== "text" || typeof parameter.text !== "string")) return `Button ${index} (URL) needs a text parameter`;
    if (button.type === "COPY_CODE" && (given?.sub_type !== "copy_code" || parameter?.type !== "coupon_code" || typeof parameter.coupon_code !== "string")) return `Button ${index} (COPY_CODE) needs a coupon_code parameter`;
  }
  return null;
}

function createTraceId(): string {
  return randomBytes(12).toString("base64url");
}

function createMessageId(): string {
  return `wamid.${randomBytes(30).toString("base64url")}`;
}

function createMediaId(): string {
  return `${randomInt(100_000_000, 999_999_999)}${randomInt(1_000_000, 9_999_999)}`;
}

function buildGraphError({
  message,
  code,
  subcode,
  details,
  type = "OAuthException",
}: {
  message: string;
  code: number;
  subcode?: number;
  details?: string;
  type?: string;
}): Record<string, unknown> {
  return {
    error: {
      message,
      type,
      code,
      ...(subcode !== undefined ? { error_subcode: subcode } : {}),
      ...(details ? { error_data: { messaging_product: "whatsapp", details } } : {}),
      fbtrace_id: createTraceId(),
    },
  };
}

function buildDefaultFailureBody(status: number): Record<string, unknown> {
  if (status === 401) return buildGraphError({ message: "Invalid OAuth access token.", code: 190 });
  if (status === 429) return buildGraphError({ message: "(#4) Application request limit reached", code: 4 });
  if (status === 503) return buildGraphError({ message: "(#2) Service temporarily unavailable", code: 2 });
  if (status >= 500) return buildGraphError({ message: "An unknown error has occurred.", code: 1 });
  return buildGraphError({ message: "(#100) Invalid parameter", code: 100 });
}

function sendJson({ response, status, body }: { response: ServerResponse; status: number; body: unknown }): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  response.writeHead(status, {
    "Content-Type": typeof body === "string" ? "text/html; charset=utf-8" : "application/json",
    "Content-Length": Buffer.byteLength(text),
  });
  response.end(text);
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

type ParsedBody = { recorded: unknown; json?: unknown; form?: FormData };

async function parseBody({ raw, contentType }: { raw: Buffer; contentType: string }): Promise<ParsedBody> {
  if (raw.length === 0) return { recorded: undefined };
  if (contentType.includes("application/json")) {
    try {
      const json: unknown = JSON.parse(raw.toString("utf8"));
      return { recorded: json, json };
    } catch {
      return { recorded: raw.toString("utf8") };
    }
  }
  if (contentType.includes("multipart/form-data")) {
    try {
      const form = await new Request("http://fake.local/", {
        method: "POST",
        headers: { "content-type": contentType },
        body: new Uint8Array(raw),
      }).formData();
      const fields: Record<string, unknown> = {};
      for (const [key, value] of form.entries()) {
        fields[key] =
          typeof value === "string" ? value : { filename: value.name, mimeType: value.type, size: value.size };
      }
      return { recorded: fields, form };
    } catch {
      return { recorded: raw.toString("utf8") };
    }
  }
  return { recorded: raw.toString("utf8") };
}

function flattenHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export async function startFakeCloudNetwork({
  accessToken,
  phoneNumberId,
  displayPhoneNumber = "+1 555-010-0199",
  verifiedName = "Chorus Test Business",
  apiVersion = "v21.0",
  businessAccountId = "102290129340398",
  signup = { appId: "1234567890", appSecret: "fake-network-app-secret", code: "AQD-signup-code" },
  appId = signup.appId,
}: {
  accessToken: string;
  phoneNumberId: string;
  displayPhoneNumber?: string;
  verifiedName?: string;
  apiVersion?: string;
  businessAccountId?: string;
  signup?: { appId: string; appSecret: string; code: string };
  appId?: string;
}): Promise<FakeCloudNetwork> {
  const resumableUploads: ResumableUpload[] = [];
  const templates = new Map<string, FakeTemplate>();
  const state = { subscribedApps: false, registeredPin: null as string | null, nextMessageId: null as string | null };
  const requests: RecordedRequest[] = [];
  const acceptedMessages: AcceptedMessage[] = [];
  const readReceipts: FakeCloudNetwork["readReceipts"] = [];
  const media = new Map<string, StoredMedia>();
  let failures: Failure[] = [];
  let delays: Delay[] = [];
  let redirects: Redirect[] = [];
  let persistentFailure: { status: number; body?: unknown } | null = null;
  const timers = new Set<NodeJS.Timeout>();
  let baseUrl = "";

  function storeMedia({ bytes, mimeType, filename }: { bytes: Buffer; mimeType: string; filename?: string }): string {
    let id = createMediaId();
    while (media.has(id)) id = createMediaId();
    media.set(id, { id, bytes, mimeType, ...(filename ? { filename } : {}) });
    return id;
  }

  function takeMatching<T extends { times: number; path?: RegExp }>(queue: T[], path: string): T | undefined {
    const match = queue.find((item) => !item.path || item.path.test(path));
    if (!match) return undefined;
    match.times -= 1;
    if (match.times <= 0) queue.splice(queue.indexOf(match), 1);
    return match;
  }

  function handleSend({ response, json }: { response: ServerResponse; json: unknown }): void {
    const invalid = (message: string, details: string) =>
      sendJson({ response, status: 400, body: buildGraphError({ message, code: 100, details }) });
    if (!isRecord(json) || json.messaging_product !== "whatsapp") {
      return invalid(
        "(#100) The parameter messaging_product is required.",
        "messaging_product must be \"whatsapp\"",
      );
    }
    // Marking a customer's message read (optionally showing the typing indicator) is a call of its own.
    if (json.status !== undefined) {
      if (json.status !== "read" || typeof json.message_id !== "string" || !json.message_id.startsWith("wamid.")) {
        return invalid("(#100) Invalid parameter", "status must be \"read\" with the message_id of a received message");
      }
      const typing = json.typing_indicator;
      if (typing !== undefined && (!isRecord(typing) || typing.type !== "text")) {
        return invalid("(#100) Invalid parameter", "typing_indicator.type must be \"text\"");
      }
      readReceipts.push({ messageId: json.message_id, ...(isRecord(typing) ? { typingIndicator: { type: String(typing.type) } } : {}) });
      return sendJson({ response, status: 200, body: { success: true } });
    }
    // A customer known only by their business-scoped user id is addressed by `recipient`; `to` wins when both are given.
    const recipient = json.to === undefined ? json.recipient : undefined;
    if (recipient !== undefined && (typeof recipient !== "string" || !BSUID_PATTERN.test(recipient))) {
      return invalid("(#100) Invalid parameter", "Parameter 'recipient' must be a business-scoped user id");
    }
    const to = recipient ?? json.to;
    if (typeof to !== "string" || (recipient === undefined && !/^\+?\d{8,15}$/.test(to))) {
      return invalid("(#100) Invalid parameter", "Parameter 'to' must be a phone number of 8 to 15 digits");
    }
    const type = json.type ?? "text";
    if (typeof type !== "string" || !(SUPPORTED_TYPES as readonly string[]).includes(type)) {
      return invalid(
        `(#100) Param type must be one of {${SUPPORTED_TYPES.join(", ").toUpperCase()}} - got "${String(type)}".`,
        "Unsupported message type",
      );
    }
    const content = json[type];
    if (!isRecord(content)) return invalid(`(#100) The parameter ${type} is required.`, `${type} object missing`);
    if (type === "interactive" && content.type === "list") {
      // Reply buttons are checked below with the other kinds; a list by the Graph API's rules here.
      const problem = checkInteractiveList(content);
      if (problem) return invalid("(#100) Invalid parameter", problem);
    } else if (type === "text") {
      if (typeof content.body !== "string" || content.body.length === 0 || content.body.length > 4096) {
        return invalid("(#100) Param text['body'] is required.", "text.body must be 1 to 4096 characters");
      }
    } else if (type === "location") {
      const { latitude, longitude } = content;
      if (typeof latitude !== "number" || typeof longitude !== "number" || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
        return invalid("(#100) Invalid parameter", "location.latitude and location.longitude must be numbers in range");
      }
    } else if (type === "reaction") {
      if (typeof content.message_id !== "string" || typeof content.emoji !== "string") {
        return invalid("(#100) Invalid parameter", "reaction needs message_id and emoji");
      }
    } else if (type === "interactive") {
      const action = isRecord(content.action) ? content.action : {};
      const body = isRecord(content.body) ? content.body : {};
      if (typeof body.text !== "string") return invalid("(#100) Param interactive['body']['text'] is required.", "interactive.body.text missing");
      if (content.type === "button") {
        const buttons = Array.isArray(action.buttons) ? action.buttons : [];
        if (buttons.length < 1 || buttons.length > 3) {
          return invalid("(#131009) Parameter value is not valid", "Reply buttons must be 1 to 3");
        }
      } else if (content.type === "flow") {
        const problem = flowActionProblem(action);
        if (problem) return invalid("(#131009) Parameter value is not valid", problem);
      } else if (content.type !== "list") {
        return invalid("(#100) Invalid parameter", "interactive.type must be button, list or flow");
      }
    } else if (type === "template") {
      const language = isRecord(content.language) ? content.language.code : undefined;
      const template = templates.get(`${String(content.name)}:${String(language)}`);
      if (!template) return invalid("(#132001) Template name does not exist in the translation", `template name (${String(content.name)}) does not exist in ${String(language)}`);
      if (template.status !== "APPROVED") return invalid("(#132015) Template is paused", "Template is not approved");
      const problem = checkTemplateParameters({ template, sent: Array.isArray(content.components) ? content.components : [], isMedia: (id) => media.has(id) });
      if (problem) return invalid("(#132000) Number of parameters does not match the expected number of params", problem);
    } else {
      if (typeof content.id !== "string") {
        return invalid(`(#100) Param ${type}['id'] is required.`, "Media must be sent by an uploaded media id");
      }
      const stored = media.get(content.id);
      if (!stored) {
        return invalid("(#100) Invalid parameter", `Media id ${content.id} was not uploaded to this number`);
      }
      if (!MEDIA_MIME_RULES[type](stored.mimeType)) {
        return invalid("(#100) Invalid parameter", `Media of type ${stored.mimeType} cannot be sent as ${type}`);
      }
      if (type === "audio" && "caption" in content) {
        return invalid("(#100) Param audio['caption'] is not a valid parameter.", "Audio has no caption");
      }
      if ("caption" in content && (typeof content.caption !== "string" || content.caption.length > 1024)) {
        return invalid(`(#100) Param ${type}['caption'] is invalid.`, "Caption must be at most 1024 characters");
      }
    }
    const callbackData = json.biz_opaque_callback_data;
    if (callbackData !== undefined && (typeof callbackData !== "string" || callbackData.length > 512)) {
      return invalid("(#100) Invalid parameter", "biz_opaque_callback_data must be a string of at most 512 characters");
    }
    const id = state.nextMessageId ?? createMessageId();
    state.nextMessageId = null;
    const waId = recipient ?? to.replace(/\D/g, "");
    acceptedMessages.push({ id, to: waId, type, body: json, ...(callbackData ? { callbackData } : {}) });
    sendJson({
      response,
      status: 200,
      body: { messaging_product: "whatsapp", contacts: [recipient ? { input: to, user_id: recipient } : { input: to, wa_id: waId }], messages: [{ id }] },
    });
  }

  async function handleUpload({ response, form }: { response: ServerResponse; form?: FormData }): Promise<void> {
    const invalid = (message: string, details: string) =>
      sendJson({ response, status: 400, body: buildGraphError({ message, code: 100, details }) });
    if (!form || form.get("messaging_product") !== "whatsapp") {
      return invalid("(#100) The parameter messaging_product is required.", "multipart field messaging_product missing");
    }
    const file = form.get("file");
    if (!file || typeof file === "string") return invalid("(#100) The parameter file is required.", "file part missing");
    const type = form.get("type");
    const mimeType = typeof type === "string" && type ? type : file.type;
    if (!mimeType) return invalid("(#100) The parameter type is required.", "type field missing");
    const id = storeMedia({ bytes: Buffer.from(await file.arrayBuffer()), mimeType, filename: file.name || undefined });
    sendJson({ response, status: 200, body: { id } });
  }

  function handleMediaInfo({ response, stored }: { response: ServerResponse; stored: StoredMedia }): void {
    const url = new URL("/whatsapp_business/attachments/", baseUrl);
    url.searchParams.set("mid", stored.id);
    url.searchParams.set("ext", String(Math.floor(Date.now() / 1000)));
    url.searchParams.set("hash", randomBytes(8).toString("hex"));
    sendJson({
      response,
      status: 200,
      body: {
        messaging_product: "whatsapp",
        url: url.toString(),
        mime_type: stored.mimeType,
        sha256: createHash("sha256").update(stored.bytes).digest("hex"),
        file_size: stored.bytes.length,
        id: stored.id,
      },
    });
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", baseUrl);
    const method = request.method ?? "GET";
    const headers = flattenHeaders(request);
    const raw = await readBody(request);
    const parsed = await parseBody({ raw, contentType: headers["content-type"] ?? "" });
    requests.push({
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body: parsed.recorded,
    });

    const delay = takeMatching(delays, url.pathname);
    if (delay) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, delay.ms);
        timers.add(timer);
      });
      if (response.destroyed) return;
    }

    const redirect = takeMatching(redirects, url.pathname);
    if (redirect) {
      response.writeHead(redirect.status, { Location: redirect.location, "Content-Length": 0 });
      response.end();
      return;
    }

    const failure = takeMatching(failures, url.pathname) ?? persistentFailure;
    if (failure) {
      return sendJson({ response, status: failure.status, body: failure.body ?? buildDefaultFailureBody(failure.status) });
    }

    const pathSegments = url.pathname.split("/").filter(Boolean);
    if (pathSegments[0] && /^v\d+(\.\d+)?$/.test(pathSegments[0])) pathSegments.shift();
    if (method === "GET" && pathSegments.join("/") === "oauth/access_token") {
      const q = url.searchParams;
      if (q.get("client_id") !== signup.appId || q.get("client_secret") !== signup.appSecret) {
        return sendJson({ response, status: 400, body: buildGraphError({ message: "Error validating client secret.", code: 1, type: "OAuthException" }) });
      }
      if (q.get("code") !== signup.code) {
        return sendJson({ response, status: 400, body: buildGraphError({ message: "Invalid verification code format.", code: 100, subcode: 36008 }) });
      }
      return sendJson({ response, status: 200, body: { access_token: accessToken, token_type: "bearer" } });
    }

    // The resumable upload API documents `OAuth <token>`; every other call takes `Bearer`.
    const uploadCall = /\/upload:/.test(url.pathname);
    if (headers.authorization !== `${uploadCall ? "OAuth" : "Bearer"} ${accessToken}`) {
      return sendJson({
        response,
        status: 401,
        body: buildGraphError({ message: "Invalid OAuth access token.", code: 190 }),
      });
    }

    if (method === "GET" && url.pathname === "/whatsapp_business/attachments/") {
      const stored = media.get(url.searchParams.get("mid") ?? "");
      if (!stored) return sendJson({ response, status: 404, body: "Not Found" });
      response.writeHead(200, { "Content-Type": stored.mimeType, "Content-Length": stored.bytes.length });
      response.end(stored.bytes);
      return;
    }

    const segments = url.pathname.split("/").filter(Boolean);
    if (segments[0] && /^v\d+(\.\d+)?$/.test(segments[0])) segments.shift();

    if (segments.length === 1 && segments[0] === "app" && method === "GET") {
      return sendJson({ response, status: 200, body: { id: appId, name: "Chorus test app" } });
    }
    if (segments.length === 2 && segments[0] === appId && segments[1] === "uploads" && method === "POST") {
      const fileLength = Number(url.searchParams.get("file_length"));
      const fileType = url.searchParams.get("file_type") ?? "";
      if (!Number.isInteger(fileLength) || fileLength <= 0 || !/^(image\/(jpeg|png)|video\/mp4|application\/pdf)$/.test(fileType)) {
        return sendJson({ response, status: 400, body: buildGraphError({ message: "(#100) Invalid parameter", code: 100, details: "file_length and a file_type of image/jpeg, image/png, video/mp4 or application/pdf are required" }) });
      }
      const sessionId = `upload:${randomBytes(18).toString("base64url")}`;
      resumableUploads.push({ sessionId, fileName: url.searchParams.get("file_name") ?? "", fileLength, fileType });
      return sendJson({ response, status: 200, body: { id: sessionId } });
    }
    if (segments.length === 1 && segments[0].startsWith("upload:") && method === "POST") {
      const session = resumableUploads.find((u) => u.sessionId === segments[0]);
      if (!session) return sendJson({ response, status: 400, body: buildGraphError({ message: "(#100) Invalid upload session", code: 100 }) });
      if (headers.file_offset !== "0") return sendJson({ response, status: 400, body: buildGraphError({ message: "(#100) file_offset must be 0 for a new upload", code: 100 }) });
      if (raw.length !== session.fileLength) {
        return sendJson({ response, status: 400, body: buildGraphError({ message: "(#100) Invalid parameter", code: 100, details: `expected ${session.fileLength} bytes, got ${raw.length}` }) });
      }
      session.bytes = raw;
      session.handle = `4::${Buffer.from(session.fileType).toString("base64")}:${randomBytes(24).toString("base64url")}`;
      return sendJson({ response, status: 200, body: { h: session.handle } });
    }

    if (segments.length === 2 && segments[0] === phoneNumberId && method === "POST") {
      if (segments[1] === "messages") return handleSend({ response, json: parsed.json });
      if (segments[1] === "media") return handleUpload({ response, form: parsed.form });
      if (segments[1] === "register") {
        const pin = isRecord(parsed.json) ? parsed.json.pin : undefined;
        if (typeof pin !== "string" || !/^\d{6}$/.test(pin)) {
          return sendJson({ response, status: 400, body: buildGraphError({ message: "(#100) Param pin must be 6 digits", code: 100 }) });
        }
        state.registeredPin = pin;
        return sendJson({ response, status: 200, body: { success: true } });
      }
    }
    if (segments.length === 2 && segments[0] === businessAccountId && segments[1] === "subscribed_apps" && method === "POST") {
      state.subscribedApps = true;
      return sendJson({ response, status: 200, body: { success: true } });
    }
    if (segments.length === 2 && segments[0] === businessAccountId && segments[1] === "message_templates") {
      if (method === "POST") {
        const json = isRecord(parsed.json) ? parsed.json : {};
        const { name, language, category, components } = json;
        if (typeof name !== "string" || !/^[a-z0-9_]{1,512}$/.test(name) || typeof language !== "string" || typeof category !== "string" || !Array.isArray(components)) {
          return sendJson({ response, status: 400, body: buildGraphError({ message: "Invalid parameter", code: 100, details: "name, language, category and components are required" }) });
        }
        const problem = checkTemplateDefinition({ components: components as unknown[], handles: new Set(resumableUploads.flatMap((u) => (u.handle ? [u.handle] : []))) });
        if (problem) return sendJson({ response, status: 400, body: buildGraphError({ message: "Invalid parameter", code: 100, details: problem }) });
        if (templates.has(`${name}:${language}`)) {
          return sendJson({
            response,
            status: 400,
            body: buildGraphError({ message: "Invalid parameter", code: 100, subcode: 2388024, details: `Content in this language already exists for ${name}` }),
          });
        }
        const id = createMediaId();
        templates.set(`${name}:${language}`, { id, name, language, category, components: components as Record<string, unknown>[], status: "PENDING" });
        return sendJson({ response, status: 200, body: { id, status: "PENDING", category } });
      }
      if (method === "DELETE") {
        const name = url.searchParams.get("name");
        const matching = [...templates.entries()].filter(([, t]) => t.name === name);
        if (matching.length === 0) {
          return sendJson({ response, status: 400, body: buildGraphError({ message: "Invalid parameter", code: 100, subcode: 2593002, details: `Message template ${name} not found` }) });
        }
        for (const [key] of matching) templates.delete(key);
        return sendJson({ response, status: 200, body: { success: true } });
      }
    }
    if (segments.length === 1 && method === "GET") {
      if (segments[0] === phoneNumberId) {
        return sendJson({
          response,
          status: 200,
          body: {
            verified_name: verifiedName,
            display_phone_number: displayPhoneNumber,
            quality_rating: "GREEN",
            id: phoneNumberId,
          },
        });
      }
      const stored = media.get(segments[0]);
      if (stored) return handleMediaInfo({ response, stored });
      return sendJson({
        response,
        status: 400,
        body: buildGraphError({
          message: `Unsupported get request. Object with ID '${segments[0]}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
          code: 100,
          subcode: 33,
          type: "GraphMethodException",
        }),
      });
    }
    sendJson({
      response,
      status: 400,
      body: buildGraphError({ message: `Unknown path components: ${url.pathname}`, code: 2500 }),
    });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) sendJson({ response, status: 500, body: buildDefaultFailureBody(500) });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    baseUrl,
    apiBaseUrl: `${baseUrl}/${apiVersion}`,
    phoneNumberId,
    accessToken,
    requests,
    acceptedMessages,
    readReceipts,
    failNext({ status, body, times = 1, path }) {
      failures.push({ status, body, times, path });
    },
    failAll({ status, body }) {
      persistentFailure = { status, body };
    },
    delayNext({ ms, times = 1, path }) {
      delays.push({ ms, times, path });
    },
    redirectNext({ location, status = 302, times = 1, path }) {
      redirects.push({ location, status, times, path });
    },
    recover() {
      failures = [];
      delays = [];
      redirects = [];
      persistentFailure = null;
    },
    addMedia: storeMedia,
    getMedia: (mediaId) => media.get(mediaId),
    businessAccountId,
    templates,
    signup,
    appId,
    resumableUploads,
    get subscribedApps() {
      return state.subscribedApps;
    },
    get registeredPin() {
      return state.registeredPin;
    },
    setNextMessageId(id) {
      state.nextMessageId = id;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

export type InboundMessageInput = {
  /** The customer's number; "" for a customer with a username whose number the network withholds. */
  from: string;
  /** The customer's business-scoped user id (`from_user_id`, and `user_id` of the contact entry). */
  fromUserId?: string;
  /** The customer's username (`profile.username` of the contact entry). */
  username?: string;
  name?: string;
  id?: string;
  timestamp?: Date;
  /** Any kind the network sends; kinds other than text and media need `payload`. */
  type: string;
  text?: string;
  media?: { id: string; mimeType: string; filename?: string; caption?: string; voice?: boolean };
  /** Placed under the `type` key as is, e.g. `{message_id, emoji}` for a reaction. */
  payload?: Record<string, unknown>;
  /** The network id of the message this one replies to. */
  contextId?: string;
};

export type InboundStatusInput = {
  id: string;
  status: string;
  recipientId: string;
  timestamp?: Date;
  error?: { code: number; title: string; message?: string; details?: string };
  /** The status's `pricing` (sent and delivered carry a free service one unless given). */
  pricing?: { category: string; billable: boolean; pricing_model?: string; type?: string };
  /** The send's `biz_opaque_callback_data`, handed back as the network does in sent, delivered and read statuses. */
  callbackData?: string;
};

function toUnixSeconds(date: Date | undefined): string {
  return String(Math.floor((date ?? new Date()).getTime() / 1000));
}

function buildMessage(input: InboundMessageInput): Record<string, unknown> {
  const message: Record<string, unknown> = {
    ...(input.from ? { from: input.from } : {}),
    ...(input.fromUserId ? { from_user_id: input.fromUserId } : {}),
    id: input.id ?? createMessageId(),
    timestamp: toUnixSeconds(input.timestamp),
    type: input.type,
  };
  if (input.type === "text") {
    message.text = { body: input.text ?? "" };
  } else if (input.media) {
    message[input.type] = {
      ...(input.media.caption !== undefined ? { caption: input.media.caption } : {}),
      ...(input.media.filename !== undefined ? { filename: input.media.filename } : {}),
      mime_type: input.media.mimeType,
      sha256: randomBytes(32).toString("base64"),
      id: input.media.id,
      ...(input.media.voice !== undefined ? { voice: input.media.voice } : {}),
    };
  } else if (input.payload) {
    message[input.type] = input.payload;
  }
  if (input.contextId) message.context = { from: "15550100199", id: input.contextId };
  return message;
}

function buildStatus(input: InboundStatusInput): Record<string, unknown> {
  const status: Record<string, unknown> = {
    id: input.id,
    status: input.status,
    timestamp: toUnixSeconds(input.timestamp),
    recipient_id: input.recipientId,
    ...(input.callbackData ? { biz_opaque_callback_data: input.callbackData } : {}),
  };
  if (input.status === "sent" || input.status === "delivered") {
    status.conversation = { id: randomBytes(16).toString("hex"), origin: { type: "service" } };
    status.pricing = { billable: true, pricing_model: "PMP", category: "service", type: "regular" };
  }
  if (input.pricing) status.pricing = { pricing_model: "PMP", type: input.pricing.billable ? "regular" : "free_customer_service", ...input.pricing };
  if (input.error) {
    status.errors = [
      {
        code: input.error.code,
        title: input.error.title,
        message: input.error.message ?? input.error.title,
        ...(input.error.details ? { error_data: { details: input.error.details } } : {}),
        href: "https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/",
      },
    ];
  }
  return status;
}

/** A webhook body shaped like the network's `messages` field notification. */
export function buildInboundPayload({
  phoneNumberId,
  displayPhoneNumber = "15550100199",
  businessAccountId = "102290129340398",
  messages,
  statuses,
}: {
  phoneNumberId: string;
  displayPhoneNumber?: string;
  businessAccountId?: string;
  messages?: InboundMessageInput[];
  statuses?: InboundStatusInput[];
}): Record<string, unknown> {
  const value: Record<string, unknown> = {
    messaging_product: "whatsapp",
    metadata: { display_phone_number: displayPhoneNumber, phone_number_id: phoneNumberId },
  };
  if (messages?.length) {
    const contacts = new Map<string, InboundMessageInput>();
    for (const message of messages) {
      const key = message.fromUserId ?? message.from;
      if (!contacts.has(key)) contacts.set(key, message);
    }
    value.contacts = [...contacts.values()].map((m) => ({
      profile: { name: m.name ?? "", ...(m.username ? { username: m.username } : {}) },
      ...(m.from ? { wa_id: m.from } : {}),
      ...(m.fromUserId ? { user_id: m.fromUserId } : {}),
    }));
    value.messages = messages.map(buildMessage);
  }
  if (statuses?.length) value.statuses = statuses.map(buildStatus);
  return {
    object: "whatsapp_business_account",
    entry: [{ id: businessAccountId, changes: [{ value, field: "messages" }] }],
  };
}

/** The `X-Hub-Signature-256` header value the network sends with a webhook. */
export function signHubPayload({ appSecret, rawBody }: { appSecret: string; rawBody: string | Buffer }): string {
  return `sha256=${createHmac("sha256", appSecret).update(rawBody).digest("hex")}`;
}

const whatsappEnvelope = ({ businessAccountId, field, value }: { businessAccountId: string; field: string; value: Record<string, unknown> }) => ({
  object: "whatsapp_business_account",
  entry: [{ id: businessAccountId, changes: [{ value, field }] }],
});

/**
 * A coexistence `history` notification: past messages of the business app, per customer
 * thread. A message `from` the customer is theirs; any other `from` is the business's.
 */
export function buildHistoryPayload({
  phoneNumberId,
  displayPhoneNumber = "15550100199",
  businessAccountId = "102290129340398",
  threads,
}: {
  phoneNumberId: string;
  displayPhoneNumber?: string;
  businessAccountId?: string;
  threads: { customer: string; messages: (InboundMessageInput & { status?: string })[] }[];
}): Record<string, unknown> {
  return whatsappEnvelope({
    businessAccountId,
    field: "history",
    value: {
      messaging_product: "whatsapp",
      metadata: { display_phone_number: displayPhoneNumber, phone_number_id: phoneNumberId },
      history: [
        {
          metadata: { phase: 0, chunk_order: 1, progress: 100 },
          threads: threads.map((thread) => ({
            id: thread.customer,
            messages: thread.messages.map(({ status, ...message }) => ({
              ...buildMessage(message),
              history_context: { status: status ?? (message.from === thread.customer ? "READ" : "DELIVERED") },
            })),
          })),
        },
      ],
    },
  });
}

/** A coexistence `smb_app_state_sync` notification: contacts added, edited or removed in the business app. */
export function buildContactSyncPayload({
  phoneNumberId,
  businessAccountId = "102290129340398",
  contacts,
}: {
  phoneNumberId: string;
  businessAccountId?: string;
  contacts: { phone: string; name: string; action?: "add" | "edit" | "remove" }[];
}): Record<string, unknown> {
  return whatsappEnvelope({
    businessAccountId,
    field: "smb_app_state_sync",
    value: {
      messaging_product: "whatsapp",
      metadata: { display_phone_number: "15550100199", phone_number_id: phoneNumberId },
      state_sync: contacts.map((contact) => ({
        type: "contact",
        contact: { full_name: contact.name, first_name: contact.name.split(" ")[0], phone_number: contact.phone },
        action: contact.action ?? "add",
        metadata: { timestamp: toUnixSeconds(undefined) },
      })),
    },
  });
}

/** A `message_template_status_update` notification: the network's verdict on a template. */
export function buildTemplateStatusPayload({
  businessAccountId = "102290129340398",
  template,
  event,
  reason,
}: {
  businessAccountId?: string;
  template: { id: string; name: string; language: string };
  event: "APPROVED" | "REJECTED" | "PENDING" | "DISABLED";
  reason?: string;
}): Record<string, unknown> {
  return whatsappEnvelope({
    businessAccountId,
    field: "message_template_status_update",
    value: {
      event,
      message_template_id: Number(template.id),
      message_template_name: template.name,
      message_template_language: template.language,
      reason: reason ?? "NONE",
    },
  });
}

/**
 * A customer's edit of an earlier message (type `edit`), as the network's `messages` webhook
 * carries it: the original message's id and the edited message (text, or a media caption).
 */
export function buildEditPayload({
  phoneNumberId,
  from,
  originalId,
  text,
  caption,
  mediaType = "image",
  id = createMessageId(),
  timestamp,
}: {
  phoneNumberId: string;
  from: string;
  originalId: string;
  text?: string;
  caption?: string;
  mediaType?: string;
  id?: string;
  timestamp?: Date;
}): Record<string, unknown> {
  const edited = text !== undefined ? { type: "text", text: { body: text } } : { type: mediaType, [mediaType]: { caption } };
  return revisionEnvelope({ phoneNumberId, from, message: { from, id, timestamp: toUnixSeconds(timestamp), type: "edit", edit: { original_message_id: originalId, message: edited } } });
}

/** A customer's deletion for everyone of an earlier message (type `revoke`). */
export function buildRevokePayload({ phoneNumberId, from, originalId, id = createMessageId(), timestamp }: { phoneNumberId: string; from: string; originalId: string; id?: string; timestamp?: Date }) {
  return revisionEnvelope({ phoneNumberId, from, message: { from, id, timestamp: toUnixSeconds(timestamp), type: "revoke", revoke: { original_message_id: originalId } } });
}

function revisionEnvelope({ phoneNumberId, from, message }: { phoneNumberId: string; from: string; message: Record<string, unknown> }) {
  return whatsappEnvelope({
    businessAccountId: "102290129340398",
    field: "messages",
    value: {
      messaging_product: "whatsapp",
      metadata: { display_phone_number: "15550100199", phone_number_id: phoneNumberId },
      contacts: [{ profile: { name: "" }, wa_id: from }],
      messages: [message],
    },
  });
}

/**
 * A `phone_number_quality_update` notification: the number's messaging limit or quality
 * changed. `old_limit` is present only for messaging limit changes.
 */
export function buildQualityUpdatePayload({
  displayPhoneNumber,
  event,
  currentLimit,
  oldLimit,
  businessAccountId = "102290129340398",
}: {
  displayPhoneNumber: string;
  event: string;
  currentLimit: string;
  oldLimit?: string;
  businessAccountId?: string;
}): Record<string, unknown> {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: businessAccountId,
        time: Math.floor(Date.now() / 1000),
        changes: [
          {
            field: "phone_number_quality_update",
            value: {
              display_phone_number: displayPhoneNumber,
              event,
              ...(oldLimit !== undefined ? { old_limit: oldLimit } : {}),
              current_limit: currentLimit,
            },
          },
        ],
      },
    ],
  };
}
