/** Browser-side helper: calls a JSON route and turns the SPEC error body into field errors. */
export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; code: string; message: string; fieldErrors: Record<string, string> };

type ErrorBody = { error?: { code?: string; message?: string; details?: { path?: string; message?: string }[] } };

export async function requestJson<T = unknown>(method: string, url: string, body?: unknown): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    return { ok: false, status: 0, code: "network_error", message: "Could not reach the server. Check your connection and try again.", fieldErrors: {} };
  }
  const text = await response.text();
  const parsed = text ? (JSON.parse(text) as unknown) : undefined;
  if (response.ok) return { ok: true, status: response.status, data: parsed as T };
  const error = (parsed as ErrorBody | undefined)?.error;
  const fieldErrors: Record<string, string> = {};
  for (const detail of error?.details ?? []) {
    if (detail.path && detail.message && !fieldErrors[detail.path]) fieldErrors[detail.path] = detail.message;
  }
  return {
    ok: false,
    status: response.status,
    code: error?.code ?? "error",
    message: error?.message ?? `The request failed (${response.status}).`,
    fieldErrors,
  };
}

export const postJson = <T = unknown>(url: string, body: unknown) => requestJson<T>("POST", url, body);
