import { ApiError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";

// What every route wrapper (/v1, the plant store, the network webhook) does the same way.

export type RouteParams = { params: Promise<Record<string, string | string[]>> };
export type NextHandler = (req: Request, context: RouteParams) => Promise<Response>;

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The caller's X-Request-Id when it is a sane token, else a new one. */
export function requestIdOf(req: Request): string {
  const given = req.headers.get("x-request-id");
  return given && REQUEST_ID.test(given) ? given : newId("request");
}

/** The path of the first string holding a NUL character (PostgreSQL text cannot store one). */
function findNul(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path.join(".") || "body" : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      const found = key.includes("\u0000") ? [...path, key.replace(/\u0000/g, "\\u0000")].join(".") : findNul(child, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

const nulError = (path: string) => new ApiError(400, "validation_error", `${path}: must not contain a NUL character`, [{ path, message: "must not contain a NUL character" }]);

/** A NUL in a path segment or a query value is a 400 naming it, before anything else runs. */
export function refuseNulInUrl(req: Request) {
  const url = new URL(req.url);
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    throw new ApiError(400, "validation_error", "path: contains a malformed percent-escape", [{ path: "path", message: "contains a malformed percent-escape" }]);
  }
  if (pathname.includes("\u0000")) throw nulError("path");
  for (const [key, value] of url.searchParams) {
    if (key.includes("\u0000") || value.includes("\u0000")) throw nulError(key.replace(/\u0000/g, "") || "query");
  }
}

/** A NUL anywhere in a JSON body is a 400 naming the field. */
export function refuseNulInBody(value: unknown) {
  const path = findNul(value);
  if (path) throw nulError(path);
}

/** The query string as a plain object (the last value of a repeated key wins). */
export function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of url.searchParams) out[key] = value;
  return out;
}

/** The route's path parameters, a catch-all segment list joined with "/". */
export async function flatParams(context: RouteParams | undefined): Promise<Record<string, string>> {
  const raw = (await context?.params) ?? {};
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]));
}

/** Adds the headers the response does not set itself. */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [key, value] of Object.entries(headers)) {
    if (!response.headers.has(key)) response.headers.set(key, value);
  }
  return response;
}

/** A handler's result as a response: a Response as is, nothing as 204, anything else as JSON. */
export function toResponse(result: unknown): Response {
  if (result instanceof Response) return result;
  if (result === undefined || result === null) return new Response(null, { status: 204 });
  return Response.json(result);
}
