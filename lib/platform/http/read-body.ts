import { ApiError } from "@/lib/platform/errors";

export const JSON_BODY_LIMIT = 64 * 1024;
export const LARGE_BODY_LIMIT = 32 * 1024 * 1024;

/**
 * A body the client stopped sending (it went away or its connection was reset): a fault of the
 * request, never of the server or its database, whatever code the socket's error carries.
 */
const incomplete = () => new ApiError(400, "validation_error", "The request body ended before it was complete.", [{ path: "body", message: "ended before it was complete" }]);

const payloadTooLarge = (limit: number) => new ApiError(413, "payload_too_large", `The request body is larger than ${limit} bytes.`);

/**
 * The exact bytes of the body, up to `limit`: a larger body (declared or streamed) is refused
 * without reading the rest, with a 413 or the error `tooLarge` makes (an API with its own
 * error shape). The one body reader of every route: JSON, forms and signed notifications.
 */
export async function readBody(req: Request, limit: number, tooLarge: () => Error = () => payloadTooLarge(limit)): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw incomplete();
    });
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The body as UTF-8 text up to `limit` bytes; text that is not valid UTF-8 is a 400. */
async function readBodyText(req: Request, limit: number): Promise<string> {
  const bytes = await readBody(req, limit);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(400, "invalid_json", "The request body is not valid UTF-8.");
  }
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;
/** How deep objects and arrays may nest in a JSON body. */
const MAX_JSON_DEPTH = 64;

/**
 * The deepest nesting of objects and arrays in JSON text, counted in one pass without
 * recursion (so a hostile body cannot exhaust the stack); stops counting past `max`.
 */
function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

const unsupportedType = (contentType: string) =>
  new ApiError(
    415,
    "unsupported_media_type",
    `${contentType ? `Content-Type "${contentType.slice(0, 100)}" is not accepted here` : "The body has no Content-Type"}: send it as JSON with Content-Type: application/json.`,
  );

/** Reads and parses a JSON body; every failure is an ApiError (400, 413 or 415). */
export async function parseJsonBody(req: Request, options: { limit: number; allowEmpty: boolean }) {
  const encoding = req.headers.get("content-encoding");
  if (encoding && encoding.toLowerCase() !== "identity") {
    throw new ApiError(415, "unsupported_media_type", `Content-Encoding "${encoding}" is not supported.`);
  }
  const contentType = (req.headers.get("content-type") ?? "").trim();
  // A body declared as something else is refused before it is read (a route that accepts
  // an empty body reads it first: nothing sent is fine whatever the header says).
  if (contentType && !JSON_TYPE.test(contentType) && !options.allowEmpty) throw unsupportedType(contentType);
  const raw = await readBodyText(req, options.limit);
  if (raw.trim() === "") {
    if (options.allowEmpty) return { raw, value: {} };
    throw new ApiError(400, "invalid_json", "The request body is empty: send a JSON document.");
  }
  if (!JSON_TYPE.test(contentType)) throw unsupportedType(contentType);
  if (jsonDepthExceeds(raw, MAX_JSON_DEPTH)) {
    throw new ApiError(400, "invalid_json", `The request body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels.`, [
      { path: "body", message: `must not nest deeper than ${MAX_JSON_DEPTH} levels` },
    ]);
  }
  try {
    return { raw, value: JSON.parse(raw) as unknown };
  } catch {
    throw new ApiError(400, "invalid_json", "The request body is not valid JSON.");
  }
}
