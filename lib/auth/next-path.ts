// Where to go after signing in: only a path of this app. Shared by the proxy, the sign-in page
// and its server action, so every place that reads `next` applies the same rule.

export const DEFAULT_NEXT_PATH = "/inbox";
const BASE = "http://chorus.invalid";
const MAX_LENGTH = 2048;

/**
 * Browsers read `\` as `/` and drop tabs and line breaks inside URLs, so `/\evil.example` or
 * `/<TAB>/evil.example` lead to another site. Refused: anything that is not a single leading
 * `/` followed by a path, in its given form and in each percent-decoded form of it.
 */
function unsafeForm(path: string): boolean {
  if (!path.startsWith("/")) return true;
  if (path[1] === "/" || path[1] === "\\") return true;
  // Control characters (TAB, CR, LF, NUL…) and backslashes have no place in an app path.
  return /[\u0000-\u001f\u007f\\]/.test(path);
}

/** `raw` when it is a path of this app, else the inbox. */
export function safeNextPath(raw: unknown, fallback: string = DEFAULT_NEXT_PATH): string {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > MAX_LENGTH) return fallback;
  let form = raw;
  for (let round = 0; round < 4; round++) {
    if (unsafeForm(form)) return fallback;
    let decoded: string;
    try {
      decoded = decodeURIComponent(form);
    } catch {
      return fallback;
    }
    if (decoded === form) break;
    form = decoded;
  }
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  return raw;
}
