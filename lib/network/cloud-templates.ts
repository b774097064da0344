import { z } from "zod";
import type { TemplateComponents } from "@/db/schema";
import { callGraph, joinUrl, redactFailure, type UrlPolicy } from "./cloud";
import type { SendResult } from "./types";

type Failure = Extract<SendResult, { ok: false }>;
type Target = { apiBaseUrl: string; businessAccountId: string; accessToken: string; urlPolicy: UrlPolicy };

const createdSchema = z.looseObject({ id: z.union([z.string(), z.number()]), status: z.string().optional() });

/** The network's component list for a template; examples are required for variables, so samples are sent. */
function networkComponents(components: TemplateComponents) {
  const list: Record<string, unknown>[] = [];
  if (components.header) list.push({ type: "HEADER", format: "TEXT", text: components.header.text });
  const count = new Set([...components.body.text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => m[1])).size;
  list.push({
    type: "BODY",
    text: components.body.text,
    ...(count > 0 ? { example: { body_text: [Array.from({ length: count }, (_, i) => `sample ${i + 1}`)] } } : {}),
  });
  if (components.footer) list.push({ type: "FOOTER", text: components.footer.text });
  if (components.buttons?.length) list.push({ type: "BUTTONS", buttons: components.buttons.map((b) => ({ type: "QUICK_REPLY", text: b.text })) });
  return list;
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
  if (!response.ok) return { ok: false, failure: redactFailure({ failure: response.failure, accessToken: target.accessToken }) };
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
  if (!response.ok) return { ok: false, failure: redactFailure({ failure: response.failure, accessToken: target.accessToken }) };
  return { ok: true };
}
