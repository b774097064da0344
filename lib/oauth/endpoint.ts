import "server-only";
import { readBody } from "@/lib/platform/http/read-body";
import { OAuthError } from "./token";
import { parseFormBody } from "./parameters";

const FORM_LIMIT = 64 * 1024;
// Answers carrying tokens must never be stored by a cache (RFC 6749 section 5.1).
const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

export function oauthJson(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

/** A form-encoded body (64 KiB at most), strictly decoded, no parameter repeated; else OAuthError invalid_request. */
export async function readForm(req: Request): Promise<URLSearchParams> {
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(req.headers.get("content-type") ?? "")) {
    throw new OAuthError("invalid_request", "Send the parameters form-encoded (Content-Type: application/x-www-form-urlencoded).");
  }
  const bytes = await readBody(req, FORM_LIMIT, () => new OAuthError("invalid_request", "The request body is too large."));
  const parsed = parseFormBody(bytes);
  if (!parsed.ok) throw new OAuthError("invalid_request", parsed.problem);
  const form = parsed.params;
  for (const key of new Set(form.keys())) {
    if (form.getAll(key).length > 1) throw new OAuthError("invalid_request", `${key} is repeated.`);
  }
  return form;
}

/** The 405 of an OAuth endpoint for other methods. */
export function oauthMethodNotAllowed(allow: string) {
  return async () => oauthJson({ error: "invalid_request", error_description: `Use ${allow}.` }, 405, { Allow: allow });
}
