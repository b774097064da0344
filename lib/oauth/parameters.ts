// Pure: read by the proxy (query strings of /oauth/*) and by the OAuth endpoints (form bodies).

export type ParsedParameters = { ok: true; params: URLSearchParams } | { ok: false; problem: string };

const decodeComponent = (part: string) => decodeURIComponent(part.replace(/\+/g, " "));

/**
 * Form-encoded parameters (a query string or an application/x-www-form-urlencoded body), refusing
 * what URLSearchParams would silently repair: a malformed %-escape, an escape that is not UTF-8,
 * and a NUL character in any name or value (the database cannot store one).
 */
export function parseParameters(text: string): ParsedParameters {
  const params = new URLSearchParams();
  for (const pair of text.split("&")) {
    if (!pair) continue;
    const eq = pair.indexOf("=");
    let name: string;
    let value: string;
    try {
      name = decodeComponent(eq < 0 ? pair : pair.slice(0, eq));
      value = eq < 0 ? "" : decodeComponent(pair.slice(eq + 1));
    } catch {
      return { ok: false, problem: "The parameters contain a malformed %-escape." };
    }
    if (name.includes("\u0000") || value.includes("\u0000")) {
      return { ok: false, problem: `${name.replace(/\u0000/g, "") || "A parameter"} must not contain a NUL character.` };
    }
    params.append(name, value);
  }
  return { ok: true, params };
}

/** A request body as form parameters: the bytes must be UTF-8 too. */
export function parseFormBody(bytes: Uint8Array): ParsedParameters {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { ok: false, problem: "The request body is not UTF-8 text." };
  }
  return parseParameters(text);
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** https, or http on the loopback interface (native and development apps), without a fragment. */
export function redirectUriProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URL";
  }
  if (url.hash || value.includes("#")) return "must not contain a fragment (#)";
  if (url.username || url.password) return "must not contain credentials";
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return "must be https, or http://localhost…";
}

/**
 * Where the consent page's form may lead besides Chorus itself: the origin of the one
 * redirect_uri the authorization request names, when it is one an app could have registered.
 * (The page shows the form only when that URI is registered for the app; otherwise no form.)
 */
export function consentFormTargets(query: string): string[] {
  const parsed = parseParameters(query);
  if (!parsed.ok) return [];
  const uris = parsed.params.getAll("redirect_uri");
  if (uris.length !== 1 || redirectUriProblem(uris[0]) !== null) return [];
  const url = new URL(uris[0]);
  // A CSP source cannot name an IPv6 address: the IPv6 loopback needs the scheme alone.
  if (url.hostname === "[::1]") return ["http:"];
  // Only plain host names and ports: nothing that could end a CSP source expression.
  return /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/.test(url.origin) ? [url.origin] : [];
}
