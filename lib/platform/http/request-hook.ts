import http from "node:http";

/** Set by the server on every request: the socket's peer address (never what a client sent). */
export const PEER_ADDRESS_HEADER = "x-chorus-peer-address";
/** Set by the server when it answered an unserved method (TRACE…) through the route's OPTIONS export. */
const ORIGINAL_METHOD_HEADER = "x-chorus-original-method";
/** Set by the server on /oauth/* requests: the query string exactly as sent (Next.js re-encodes it before the proxy runs). */
export const RAW_QUERY_HEADER = "x-chorus-raw-query";

// The methods Next.js route files can serve; anything else (TRACE, PROPFIND…) is handed to the
// route as OPTIONS, which every route answers with 405 and its Allow header.
const ROUTABLE = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]);

/** What the server writes on an incoming request before Next.js sees it. */
export function stampRequest(req: http.IncomingMessage) {
  delete req.headers[ORIGINAL_METHOD_HEADER];
  delete req.headers[RAW_QUERY_HEADER];
  const target = req.url ?? "";
  if (target.startsWith("/oauth/") && target.includes("?")) req.headers[RAW_QUERY_HEADER] = target.slice(target.indexOf("?") + 1);
  req.headers[PEER_ADDRESS_HEADER] = req.socket?.remoteAddress ?? "unknown";
  if (req.method && !ROUTABLE.has(req.method)) {
    req.headers[ORIGINAL_METHOD_HEADER] = req.method;
    req.method = "OPTIONS";
  }
}

// On globalThis: the hook is installed once per process; Next.js bundles each route and action
// separately (and reloads modules in development), so a module-level value would exist once per
// bundle.
const holder = globalThis as unknown as { __chorusRequestHook?: boolean };

/**
 * Installs `stampRequest` on every HTTP server of this process (the one `next start` opened
 * included): runs once, from instrumentation, before the first request is handled.
 */
export function installRequestHook() {
  if (holder.__chorusRequestHook) return;
  holder.__chorusRequestHook = true;
  const proto = http.Server.prototype as unknown as { emit: (event: string | symbol, ...args: unknown[]) => boolean };
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") stampRequest(args[0] as http.IncomingMessage);
    return emit.call(this, event, ...args);
  };
}

/** The method the client used (TRACE for a request handed over as OPTIONS). */
export function requestMethod(req: Request): string {
  return (req.method === "OPTIONS" && req.headers.get(ORIGINAL_METHOD_HEADER)) || req.method;
}
