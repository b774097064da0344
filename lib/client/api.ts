/** Browser-side helper: calls a JSON route and turns the error body into field errors. */
import { recallResponse, rememberResponse } from "./offline-cache";
import { browserFieldError, type FieldIssue } from "./field-errors";
import { plainStatusMessage } from "./plain-errors";

export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | {
      ok: false;
      status: number;
      code: string;
      /** A plain sentence for the person at the keyboard. */
      message: string;
      fieldErrors: Record<string, string>;
      /** The server's own error message, when it sent one (for callers that word errors themselves). */
      serverMessage?: string;
    };

/** How a request goes, beyond its method, address and JSON body. */
type RequestOptions = {
  /** More headers (an `Idempotency-Key`, say). */
  headers?: Record<string, string>;
  /** The body already serialised as JSON (kept byte for byte, e.g. for a retry under the same key); replaces `body`. */
  bodyText?: string;
  /**
   * A signal in the background (a typing notice) whose 401 says nothing to the person: `false`
   * keeps the "session ended" dialog for what they asked for, such as the reply they send next.
   */
  reportsSessionEnd?: boolean;
};

type ErrorBody = { error?: { code?: string; message?: string; details?: Partial<FieldIssue>[] } };

/** Fired on window when a signed-in request answers 401: the session expired or was revoked. */
export const SESSION_ENDED_EVENT = "chorus:session-ended";

export function reportSessionEnded() {
  if (typeof window !== "undefined") window.dispatchEvent(new Event(SESSION_ENDED_EVENT));
}

export async function requestJson<T = unknown>(method: string, url: string, body?: unknown, options: RequestOptions = {}): Promise<ApiResult<T>> {
  const payload = options.bodyText ?? (body === undefined ? undefined : JSON.stringify(body));
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: { ...(payload === undefined ? {} : { "Content-Type": "application/json" }), ...options.headers },
      body: payload,
      credentials: "same-origin",
    });
  } catch {
    // Offline: a read the inbox made before answers from this browser's copy of it.
    const kept = method === "GET" ? await recallResponse<T>(url).catch(() => undefined) : undefined;
    if (kept !== undefined) return { ok: true, status: 200, data: kept };
    return { ok: false, status: 0, code: "network_error", message: plainStatusMessage(0), fieldErrors: {} };
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    parsed = undefined;
  }
  if (response.ok) {
    if (method === "GET") void rememberResponse(url, parsed).catch(() => undefined);
    return { ok: true, status: response.status, data: parsed as T };
  }
  if (response.status === 401 && options.reportsSessionEnd !== false) reportSessionEnded();
  const error = (parsed as ErrorBody | undefined)?.error;
  const fieldErrors: Record<string, string> = {};
  for (const detail of error?.details ?? []) {
    // In the page's language: the detail's code and params say what is wrong, the message is English.
    if (detail.path && detail.message && !fieldErrors[detail.path]) fieldErrors[detail.path] = browserFieldError(detail as FieldIssue);
  }
  return {
    ok: false,
    status: response.status,
    code: error?.code ?? "error",
    message: plainStatusMessage(response.status, error?.message),
    fieldErrors,
    ...(error?.message ? { serverMessage: error.message } : {}),
  };
}

export const postJson = <T = unknown>(url: string, body: unknown) => requestJson<T>("POST", url, body);
