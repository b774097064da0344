import { z } from "zod";
import type { TemplateComponents } from "@/db/schema";
import { getEnv } from "@/lib/platform/env";
import type { SendResult } from "@/lib/network/types";
import { callGraph, joinUrl, redactFailure, type UrlPolicy } from "./graph";

type Failure = Extract<SendResult, { ok: false }>;
type Target = { apiBaseUrl: string; businessAccountId: string; accessToken: string; urlPolicy: UrlPolicy };

const createdSchema = z.looseObject({ id: z.union([z.string(), z.number()]), status: z.string().optional() });
const appSchema = z.looseObject({ id: z.union([z.string(), z.number()]) });
// The session id is a path with its own query (`upload:MTph…?sig=ARZ…`): appended as the network gave it.
const sessionSchema = z.looseObject({ id: z.string().regex(/^upload:[\w\-=+/.:?&%]+$/) });
const handleSchema = z.looseObject({ h: z.string().min(1) });

const variablePattern = /\{\{\s*(\d+)\s*\}\}/g;

/**
 * The network's component list for a template. Variables need examples for the review: the
 * template's own, else `sample 1`…; a media header is reviewed through its upload handle.
 */
function networkComponents(components: TemplateComponents) {
  const list: Record<string, unknown>[] = [];
  const header = components.header;
  const format = header?.format ?? "TEXT";
  if (header && format === "TEXT") list.push({ type: "HEADER", format: "TEXT", text: header.text });
  else if (header && format === "LOCATION") list.push({ type: "HEADER", format: "LOCATION" });
  else if (header) list.push({ type: "HEADER", format, example: { header_handle: [header.media?.handle ?? ""] } });
  const count = new Set([...components.body.text.matchAll(variablePattern)].map((m) => m[1])).size;
  const examples = components.body.examples ?? Array.from({ length: count }, (_, i) => `sample ${i + 1}`);
  list.push({ type: "BODY", text: components.body.text, ...(count > 0 ? { example: { body_text: [examples] } } : {}) });
  if (components.footer) list.push({ type: "FOOTER", text: components.footer.text });
  if (components.buttons?.length) {
    list.push({
      type: "BUTTONS",
      buttons: components.buttons.map((button) => {
        switch (button.type) {
          case "URL":
            return {
              type: "URL",
              text: button.text,
              url: button.url,
              // The network reviews the whole address with the example suffix in place.
              ...(button.example && /\{\{\s*1\s*\}\}/.test(button.url) ? { example: [button.url.replace(variablePattern, button.example)] } : {}),
            };
          case "PHONE_NUMBER":
            return { type: "PHONE_NUMBER", text: button.text, phone_number: button.phone_number };
          case "COPY_CODE":
            return { type: "COPY_CODE", example: button.example };
          default:
            return { type: "QUICK_REPLY", text: button.text };
        }
      }),
    });
  }
  return list;
}

const failed = (failure: Failure, accessToken: string) => ({ ok: false as const, failure: redactFailure({ failure, accessToken }) });
const unreadable = (what: string): { ok: false; failure: Failure } => ({
  ok: false,
  failure: { ok: false, retryable: false, code: "invalid_response", message: `The network's answer to the ${what} could not be read.` },
});

/** The app the access token belongs to: NETWORK_APP_ID, else the network's `GET /app`. */
async function appIdOf(target: Target): Promise<{ ok: true; appId: string } | { ok: false; failure: Failure }> {
  const configured = getEnv().NETWORK_APP_ID;
  if (configured) return { ok: true, appId: configured };
  const response = await callGraph({ url: joinUrl({ apiBaseUrl: target.apiBaseUrl, segments: ["app"] }), method: "GET", accessToken: target.accessToken, timeoutMs: 15_000, policy: target.urlPolicy });
  if (!response.ok) return failed(response.failure, target.accessToken);
  const parsed = appSchema.safeParse(response.body);
  return parsed.success ? { ok: true, appId: String(parsed.data.id) } : unreadable("app lookup");
}

/**
 * Uploads a template's header file through the network's resumable upload API: a session
 * (`POST /{app_id}/uploads?file_name&file_length&file_type`), then the bytes from offset 0
 * (`POST /{upload_session_id}`). Returns the handle a template's `header_handle` names.
 */
export async function uploadTemplateMedia(
  target: Target,
  file: { bytes: Buffer; mimeType: string; filename?: string },
): Promise<{ ok: true; handle: string } | { ok: false; failure: Failure }> {
  const app = await appIdOf(target);
  if (!app.ok) return app;
  const sessionUrl = new URL(joinUrl({ apiBaseUrl: target.apiBaseUrl, segments: [app.appId, "uploads"] }));
  sessionUrl.searchParams.set("file_name", file.filename ?? "header");
  sessionUrl.searchParams.set("file_length", String(file.bytes.length));
  sessionUrl.searchParams.set("file_type", file.mimeType);
  const session = await callGraph({ url: sessionUrl.toString(), method: "POST", accessToken: target.accessToken, timeoutMs: 15_000, policy: target.urlPolicy });
  if (!session.ok) return failed(session.failure, target.accessToken);
  const opened = sessionSchema.safeParse(session.body);
  if (!opened.success) return unreadable("upload session");
  const upload = await callGraph({
    url: `${target.apiBaseUrl.replace(/\/+$/, "")}/${opened.data.id}`,
    method: "POST",
    accessToken: target.accessToken,
    authScheme: "OAuth",
    headers: { file_offset: "0" },
    body: { bytes: file.bytes },
    timeoutMs: 60_000,
    policy: target.urlPolicy,
  });
  if (!upload.ok) return failed(upload.failure, target.accessToken);
  const handle = handleSchema.safeParse(upload.body);
  return handle.success ? { ok: true, handle: handle.data.h } : unreadable("upload");
}

/** `POST /{business_account_id}/message_templates`: the network's id and first status. */
export async function createCloudTemplate(
  target: Target,
  template: { name: string; language: string; category: string; components: TemplateComponents },
): Promise<{ ok: true; networkTemplateId: string; status?: string } | { ok: false; failure: Failure }> {
  const response = await callGraph({
    url: joinUrl({ apiBaseUrl: target.apiBaseUrl, segments: [target.businessAccountId, "message_templates"] }),
    method: "POST",
    accessToken: target.accessToken,
    body: { json: { name: template.name, language: template.language, category: template.category, components: networkComponents(template.components) } },
    timeoutMs: 15_000,
    policy: target.urlPolicy,
  });
  if (!response.ok) return failed(response.failure, target.accessToken);
  const parsed = createdSchema.safeParse(response.body);
  if (!parsed.success) {
    return { ok: false, failure: { ok: false, retryable: false, code: "invalid_response", message: "The network accepted the template but its answer could not be read." } };
  }
  return { ok: true, networkTemplateId: String(parsed.data.id), ...(parsed.data.status ? { status: parsed.data.status } : {}) };
}

/** `DELETE /{business_account_id}/message_templates?name=…&hsm_id=…`. */
export async function deleteCloudTemplate(target: Target, template: { name: string; networkTemplateId: string | null }): Promise<{ ok: true } | { ok: false; failure: Failure }> {
  const url = new URL(joinUrl({ apiBaseUrl: target.apiBaseUrl, segments: [target.businessAccountId, "message_templates"] }));
  url.searchParams.set("name", template.name);
  if (template.networkTemplateId) url.searchParams.set("hsm_id", template.networkTemplateId);
  const response = await callGraph({ url: url.toString(), method: "DELETE", accessToken: target.accessToken, timeoutMs: 15_000, policy: target.urlPolicy });
  if (!response.ok) return failed(response.failure, target.accessToken);
  return { ok: true };
}
