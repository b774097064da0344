// Where to go after signing in: only a path of this app. Shared by the proxy, the sign-in page
// and its server action, so every place that reads `next` applies the same rule.

export const DEFAULT_NEXT_PATH = "/inbox";
const BASE = "http://chorus.invalid";
const MAX_LENGTH = 2048;

/**
 * Browsers read `\` as `/` and drop tabs and line breaks inside URLs, so `/\evil.example` or
 * `/<TAB>/evil.example` lead to another site. Refused: a path that is not a single leading `/`
 * followed by a path, in its given form and in each percent-decoded form of it. (Only the path
 * decides where the browser goes: the query and fragment may carry any escape.)
 */
function unsafeForm(path: string): boolean {
  if (!path.startsWith("/")) return true;
  if (path[1] === "/" || path[1] === "\\") return true;
  // Control characters (TAB, CR, LF, NUL…) and backslashes have no place in an app path.
  return /[\u0000-\u001f\u007f\\]/.test(path);
}

/** `raw`, normalised, when it is a path of this app (with any query and fragment), else the inbox. */
export function safeNextPath(raw: unknown, fallback: string = DEFAULT_NEXT_PATH): string {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > MAX_LENGTH) return fallback;
  // A raw control character anywhere is dropped by the browser's URL parser: never meant.
  if (/[\u0000-\u001f\u007f]/.test(raw)) return fallback;
  const end = raw.search(/[?#]/);
  let form = end === -1 ? raw : raw.slice(0, end);
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
  // Dot segments resolved (`/.//evil.example` is `//evil.example`, another site).
  if (url.pathname.startsWith("//")) return fallback;
  return url.pathname + url.search + url.hash;
}
