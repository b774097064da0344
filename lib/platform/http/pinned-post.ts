import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import { Readable } from "node:stream";

export type PinnedPostResult =
  | { ok: true; status: number; body: string; durationMs: number }
  | { ok: false; status?: number; body?: string; error: string; durationMs: number };

function stripBrackets(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  // Node asks for either one address or, when it races address families, a list; both
  // answers carry only the pinned address so no other resolution can sneak in.
  return (_hostname, options, callback) => {
    if (options.all) {
      (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(
        null,
        [{ address, family }],
      );
    } else {
      callback(null, address, family);
    }
  };
}

// Keep-alive connections per endpoint (Node closes an idle one when the server's Keep-Alive
// hint says it will), each pool bound to the one address the URL policy approved: a name that
// resolves elsewhere later gets a new pool, never an old socket.
const MAX_POOLS = 256;
const pools = new Map<string, http.Agent>();

function poolFor(url: URL, address: string, family: 4 | 6, servername: string | undefined): http.Agent {
  const key = `${url.protocol}//${url.host}|${address}|${family}`;
  let agent = pools.get(key);
  if (agent) {
    // Most recently used last, so the oldest pool is the one closed when there are too many.
    pools.delete(key);
    pools.set(key, agent);
    return agent;
  }
  const options = { keepAlive: true, keepAliveMsecs: 1000, maxSockets: 32, maxFreeSockets: 32, lookup: pinnedLookup(address, family), family };
  agent = url.protocol === "https:" ? new https.Agent({ ...options, servername }) : new http.Agent(options);
  pools.set(key, agent);
  if (pools.size > MAX_POOLS) {
    const [oldestKey, oldest] = pools.entries().next().value as [string, http.Agent];
    pools.delete(oldestKey);
    // Idle connections close now; those still carrying a request close when it is answered.
    oldest.maxFreeSockets = 0;
    for (const sockets of Object.values(oldest.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
  }
  return agent;
}

/**
 * POSTs to `url` while connecting only to `address`, the address the URL policy approved.
 * The URL's host name still travels as the Host header and the TLS server name, so virtual
 * hosting and certificate checks work as usual. Redirects are never followed. Never throws.
 */
export function pinnedPost({
  url,
  address,
  family,
  headers,
  body,
  timeoutMs,
  maxResponseBytes = 2048,
  keepAlive = false,
}: {
  url: URL;
  address: string;
  family: 4 | 6;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  maxResponseBytes?: number;
  /** Reuse connections to this endpoint (at the same pinned address) across calls. */
  keepAlive?: boolean;
}): Promise<PinnedPostResult> {
  const startedAt = performance.now();
  const elapsed = () => Math.round(performance.now() - startedAt);

  return new Promise<PinnedPostResult>((resolve) => {
    let settled = false;
    let request: http.ClientRequest | undefined;
    let timer: NodeJS.Timeout | undefined;
    let resent = false;

    // A connection whose answer was read to the end goes back to its pool; any other is closed.
    const finish = (result: PinnedPostResult, reusable = false) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      if (!reusable || !keepAlive) request?.destroy();
      resolve(result);
    };
    const fail = (error: string, partial: { status?: number; body?: string } = {}) =>
      finish({ ok: false, ...partial, error, durationMs: elapsed() });

    try {
      const isHttps = url.protocol === "https:";
      if (!isHttps && url.protocol !== "http:") {
        fail(`unsupported protocol ${url.protocol}`);
        return;
      }
      const hostname = stripBrackets(url.hostname);
      const hostIsLiteral = isIP(hostname) !== 0;
      const payload = Buffer.from(body, "utf8");

      const options: https.RequestOptions = {
        method: "POST",
        // A literal host needs no lookup, so connect straight to the pinned address instead.
        host: hostIsLiteral ? address : hostname,
        port: url.port === "" ? (isHttps ? 443 : 80) : Number(url.port),
        path: `${url.pathname}${url.search}`,
        family,
        lookup: pinnedLookup(address, family),
        agent: keepAlive ? poolFor(url, address, family, isHttps && !hostIsLiteral ? hostname : undefined) : false,
        headers: {
          ...headers,
          "Content-Length": String(payload.length),
          Host: url.host,
        },
      };
      if (isHttps && !hostIsLiteral) options.servername = hostname;

      const send = () => {
        let answered = false;
        const current = (request = (isHttps ? https : http).request(options, (response) => {
          answered = true;
          const status = response.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let received = 0;

          const complete = (ended: boolean) => {
            const text = Buffer.concat(chunks).toString("utf8");
            if (status >= 200 && status < 300) {
              finish({ ok: true, status, body: text, durationMs: elapsed() }, ended);
            } else if (status >= 300 && status < 400) {
              finish({ ok: false, status, body: text, error: "redirect not followed", durationMs: elapsed() }, ended);
            } else {
              finish({ ok: false, status, body: text, error: `unexpected status ${status}`, durationMs: elapsed() }, ended);
            }
          };

          response.on("data", (chunk: Buffer) => {
            if (settled) return;
            const room = maxResponseBytes - received;
            if (chunk.length >= room) {
              chunks.push(chunk.subarray(0, room));
              received += room;
              // Enough is kept for the log; the rest is not worth waiting for.
              complete(false);
              return;
            }
            chunks.push(chunk);
            received += chunk.length;
          });
          response.on("end", () => complete(true));
          response.on("error", (error) => fail(error.message || "response error", { status }));
          response.on("aborted", () => fail("response aborted", { status }));
        }));

        current.on("error", (error) => {
          // A kept-alive connection the receiver closed while it sat idle fails as soon as it is
          // reused, before the receiver read anything: the request goes again on another one.
          const code = (error as NodeJS.ErrnoException).code;
          // Once, on a connection of its own, so that it cannot meet another stale one.
          if (!settled && !answered && current.reusedSocket && !resent && (code === "ECONNRESET" || code === "EPIPE")) {
            resent = true;
            options.agent = false;
            send();
            return;
          }
          fail(error.message || String(error));
        });
        current.end(payload);
      };
      timer = setTimeout(() => fail(`timeout after ${timeoutMs} ms`), timeoutMs);
      send();
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
  });
}

/**
 * A `fetch` that connects only to `address`, the address the URL policy approved (like
 * `pinnedPost`), for callers that need a real Response: streamed bodies, headers, any method.
 * The URL's host name travels as the Host header and the TLS server name. Redirects are never
 * followed (a 3xx is returned as is). Rejects like fetch: on a connection error or an abort.
 */
export async function pinnedFetch(
  url: string | URL,
  { address, family }: { address: string; family: 4 | 6 },
  init: { method?: string; headers?: Record<string, string>; body?: string | FormData | Uint8Array; signal?: AbortSignal } = {},
): Promise<Response> {
  const target = new URL(url);
  const isHttps = target.protocol === "https:";
  if (!isHttps && target.protocol !== "http:") throw new TypeError(`unsupported protocol ${target.protocol}`);
  let payload: Buffer | undefined;
  const headers: Record<string, string> = { ...init.headers };
  if (init.body instanceof FormData) {
    // Serialised as fetch would: a multipart body with its boundary in Content-Type.
    const encoded = new Response(init.body);
    headers["Content-Type"] = encoded.headers.get("content-type") ?? "multipart/form-data";
    payload = Buffer.from(await encoded.arrayBuffer());
  } else if (typeof init.body === "string") {
    payload = Buffer.from(init.body, "utf8");
  } else if (init.body) {
    payload = Buffer.from(init.body);
  }
  if (payload) headers["Content-Length"] = String(payload.length);
  const hostname = stripBrackets(target.hostname);
  const hostIsLiteral = isIP(hostname) !== 0;
  init.signal?.throwIfAborted();

  return new Promise<Response>((resolve, reject) => {
    const options: https.RequestOptions = {
      method: init.method ?? "GET",
      host: hostIsLiteral ? address : hostname,
      port: target.port === "" ? (isHttps ? 443 : 80) : Number(target.port),
      path: `${target.pathname}${target.search}`,
      family,
      lookup: pinnedLookup(address, family),
      agent: false,
      headers: { ...headers, Host: target.host },
      signal: init.signal,
    };
    if (isHttps && !hostIsLiteral) options.servername = hostname;
    const request = (isHttps ? https : http).request(options, (response) => {
      const status = response.statusCode ?? 0;
      const responseHeaders = new Headers();
      for (const [key, value] of Object.entries(response.headers)) {
        if (value === undefined) continue;
        for (const item of Array.isArray(value) ? value : [value]) responseHeaders.append(key, item);
      }
      const noBody = status === 204 || status === 304 || init.method === "HEAD";
      const body = noBody ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>);
      if (noBody) response.resume();
      resolve(new Response(body, { status, headers: responseHeaders }));
    });
    // Like fetch: an abort rejects with the signal's reason, anything else with "fetch failed" and its cause.
    request.on("error", (error) => reject(init.signal?.aborted ? init.signal.reason : new TypeError("fetch failed", { cause: error })));
    request.end(payload);
  });
}
