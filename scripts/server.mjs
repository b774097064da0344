// The Chorus HTTP server: Next.js (production build, or `--dev`) plus the WebSocket endpoint
// GET /v1/ws. Next's route handlers cannot take over a connection for a WebSocket upgrade, so
// this small server hands every HTTP request to Next and answers the upgrade on /v1/ws itself.
import { EventEmitter } from "node:events";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { openEmbeddedEarly } from "../db/pglite-early.mjs";
import { createEventSocketHandler, WS_PATH } from "./event-socket.mjs";
import { eventStreamEntry, isEventStreamRequest, serveEventStream } from "./event-stream.mjs";
import { PAGE_RETRY_SECONDS, unavailablePage } from "./unavailable-page.mjs";
import { answerTooLarge, HEADERS_TIMEOUT_MS, isPlantStore, MAX_BODY_BYTES, REQUEST_TIMEOUT_MS, requestIdOf } from "./request-limits.mjs";

const root = path.resolve(import.meta.dirname, "..");
const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
// Next reads NODE_ENV when it loads, so it is set before Next is imported.
process.env.NODE_ENV ??= dev ? "development" : "production";
// The embedded database opens while Next.js loads (db/pglite-early.mjs): its worker thread and
// this thread work at once, and the app adopts the worker. The .env files are read first, as
// Next.js reads them, so that the folder is the one the app will use.
if (!dev) {
  const { loadEnvConfig } = createRequire(createRequire(import.meta.url).resolve("next/package.json"))("@next/env");
  loadEnvConfig(root, false, { info: () => {}, error: (...args) => console.error(...args) });
  const dir = process.env.PGLITE_DIR || "./.data/pglite";
  if (!process.env.DATABASE_URL && !dir.startsWith("memory://")) openEmbeddedEarly(path.resolve(process.cwd(), dir));
}
const { default: next } = await import("next");

// Next attaches its own upgrade listener to the server of the first request (and ends every
// upgrade it does not know); it gets a detached emitter instead, and this server decides.
const app = next({ dev, dir: root, port, httpServer: new EventEmitter() });
const handle = app.getRequestHandler();
await app.prepare();
const nextUpgrade = dev ? app.getUpgradeHandler() : undefined;
const eventSocket = createEventSocketHandler();

// Load shedding. The embedded database runs in a worker thread with one queue; when that queue
// holds more than about OVERLOAD_WAIT_MS of work, a new API or network-webhook request is
// answered 503 `overloaded` with Retry-After at once, before Next.js reads its body, instead of
// waiting behind the others (the network redelivers a refused webhook; nothing acknowledged is
// dropped). Pages, /healthz and everything else are served as usual. The estimate comes from
// the database handle the app keeps on globalThis (db/index.ts); PostgreSQL has none.
const OVERLOAD_WAIT_MS = 2_000;
const SHED_PAUSE_MS = 500;
const SHED_PREFIXES = ["/v1", "/api/network/webhook"];
const shedsUnderLoad = (target) => SHED_PREFIXES.some((prefix) => target === prefix || target.startsWith(`${prefix}/`) || target.startsWith(`${prefix}?`));
const databaseWaitMs = () => globalThis.__chorusDb?.queueWaitMs?.() ?? 0;

// The same limit for the requests already admitted: how long a new one would wait behind them,
// from how many are in progress and how many the server has been finishing per second. This
// counts what the database's queue cannot see (the server's own thread busy with the requests
// around the statements), and a burst that arrives before any statement is queued. The first
// MIN_IN_FLIGHT are always admitted. The event stream is not counted: it stays open by design.
// A request counts as work from the moment its whole body has arrived (at once for one without
// a body), not while its client is still sending: a client trickling a body holds a connection,
// not a share of the database, and the body timeout cuts it.
const MIN_IN_FLIGHT = 16;
const work = { inFlight: 0, finished: 0, perSecond: 0, since: performance.now() };
setInterval(() => {
  const now = performance.now();
  if (work.inFlight > 0 || work.finished > 0) {
    const rate = work.finished / ((now - work.since) / 1000);
    work.perSecond = work.perSecond === 0 ? rate : work.perSecond * 0.7 + rate * 0.3;
  }
  work.finished = 0;
  work.since = now;
}, 500).unref();
const admittedWaitMs = () => (work.inFlight < MIN_IN_FLIGHT ? 0 : work.perSecond > 0 ? (work.inFlight / work.perSecond) * 1000 : Infinity);
const countsAsWork = (target) => !(target === "/v1/events/stream" || target.startsWith("/v1/events/stream?"));
function admit(req, res) {
  let counted = false;
  let closed = false;
  const count = () => {
    if (counted || closed) return;
    counted = true;
    work.inFlight++;
  };
  res.once("close", () => {
    closed = true;
    if (!counted) return;
    work.inFlight--;
    work.finished++;
  });
  onBodyArrived(req, count);
}

/**
 * Calls `then` once the request's whole body has arrived (at once for one without a body): the
 * HTTP parser pushes the end of the body (null) into the request when its last byte arrives,
 * whether or not the route has read it yet.
 */
function onBodyArrived(req, then) {
  if (req.complete) return then();
  const push = req.push;
  req.push = function (chunk, encoding) {
    if (chunk === null) then();
    return push.call(this, chunk, encoding);
  };
}
const REQUEST_ID = /^[\w.:-]{1,128}$/;

function answerOverloaded(req, res, waitMs) {
  const given = req.headers["x-request-id"];
  const requestId = typeof given === "string" && REQUEST_ID.test(given) ? given : requestIdOf();
  const retryAfter = Number.isFinite(waitMs) ? Math.min(30, Math.max(1, Math.ceil(waitMs / 1000))) : 1;
  const body = JSON.stringify({
    error: { code: "overloaded", message: `The server is busy; retry in ${retryAfter} second${retryAfter === 1 ? "" : "s"}.` },
    request_id: requestId,
  });
  // The body, if any, is read and dropped so that the connection can carry the next request.
  req.resume();
  // Answered after a short pause: a client that retries at once, ignoring Retry-After, would
  // otherwise spend the server's thread on refusals instead of on the work it admitted.
  const timer = setTimeout(() => send(), SHED_PAUSE_MS);
  res.once("close", () => clearTimeout(timer));
  const send = () => res.writeHead(503, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    "Retry-After": String(retryAfter),
    "X-Request-Id": requestId,
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
  }).end(body);
}

// Outages are told, not hidden. While the database cannot be reached, every request is answered
// within about 2 s: one still unanswered ANSWER_CHECK_MS after it arrived whole, or one whose
// answer is a 500, makes the server ask whether the database answers at all (one probe shared by
// all requests, at most PROBE_TIMEOUT_MS). If it does not, the request gets 503
// `service_unavailable` with Retry-After (a page gets a page saying so, which reloads itself),
// and whatever the route writes later is dropped. While the database answers, nothing changes:
// a slow request keeps its time, a 500 is sent as it was.
const ANSWER_CHECK_MS = 1_000;
const PROBE_TIMEOUT_MS = 700;
const PROBE_REUSE_MS = 1_000;
const UNAVAILABLE_RETRY_AFTER_SECONDS = PAGE_RETRY_SECONDS;
let lastProbe = { at: 0, reachable: Promise.resolve(true) };

/**
 * Whether the database answers a trivial statement now. The embedded one runs in this process:
 * it is reachable while its worker runs (a busy one is shed as overloaded, not unavailable).
 * PostgreSQL is asked on a connection of the probe's own, outside the app's pool: a pool busy
 * with slow statements is not an outage, and a probe never waits behind them. A probe that gets
 * no answer drops its connection (a partition can leave it hanging), the next one opens a new one.
 */
let probeClient;
async function postgresAnswers(url) {
  if (!probeClient) {
    const { default: postgres } = await import("postgres");
    probeClient = postgres(url, { max: 1, connect_timeout: 1, idle_timeout: 30, onnotice: () => {} });
  }
  const client = probeClient;
  let timer;
  const answered = await Promise.race([
    client`select 1`.then(() => true, () => false),
    new Promise((resolve) => (timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS))),
  ]).finally(() => clearTimeout(timer));
  if (!answered && probeClient === client) {
    probeClient = undefined;
    void client.end({ timeout: 0 }).catch(() => {});
  }
  return answered;
}

function databaseReachable() {
  const now = Date.now();
  if (now - lastProbe.at < PROBE_REUSE_MS) return lastProbe.reachable;
  const handle = globalThis.__chorusDb;
  const url = process.env.DATABASE_URL;
  let reachable;
  if (!handle) reachable = Promise.resolve(true);
  else if (handle.kind === "pglite" || !url) reachable = Promise.resolve(!handle.pglite?.closed);
  else reachable = postgresAnswers(url).catch(() => false);
  lastProbe = { at: now, reachable };
  return reachable;
}

const isPagePath = (target) => !/^\/(v1|api|plant-store|healthz|readyz|_next)(\/|\?|$)/.test(target) && !/\.\w+(\?|$)/.test(target.split("?")[0]);
// A page read, or a page's form sent without its script (a server action posted as a plain form):
// either way a browser shows the answer as a document.
const isPageRequest = (req, target) =>
  isPagePath(target) && (req.method === "GET" || req.method === "HEAD" || (req.method === "POST" && req.headers["next-action"] === undefined));
// A page's server action called by its script (a form's save): Next.js's client sends the
// action's id in this header and reads the answer as a React Server Components payload.
const isActionCall = (req, target) => req.method === "POST" && typeof req.headers["next-action"] === "string" && isPagePath(target);

/**
 * What a server action answers when the database cannot be reached, in the action's own
 * protocol: the result the action itself gives when a statement fails for that reason (`runAction`
 * in lib/server/action.ts), as the one row of a React Server Components payload. The form that
 * called it stays as it is, with what the user entered, and says the database cannot be reached.
 * A payload of any other kind would make the browser throw the form away for an error page.
 */
const UNAVAILABLE_ACTION_RESULT = {
  ok: false,
  status: 503,
  code: "service_unavailable",
  message: "Chorus can’t reach its database right now — retrying. Nothing was saved; what you entered is still here.",
  fieldErrors: {},
};
const unavailableActionPayload = () => `0:${JSON.stringify({ a: UNAVAILABLE_ACTION_RESULT })}\n`;

/** After the server answered itself: whatever the route still writes goes nowhere. */
function mute(res) {
  for (const name of ["writeHead", "setHeader", "appendHeader", "removeHeader", "flushHeaders", "write", "end"]) {
    res[name] = name === "write" ? () => true : () => res;
  }
}

/**
 * 503 `service_unavailable` with Retry-After: the page saying so for a page, the action's result
 * for a server action (see UNAVAILABLE_ACTION_RESULT), the API's error body otherwise.
 */
function answerUnavailable(req, res, target, page) {
  const given = res.getHeader("x-request-id") ?? req.headers["x-request-id"];
  const requestId = typeof given === "string" && REQUEST_ID.test(given) ? given : requestIdOf();
  const message = "The service cannot reach its database right now. Nothing was changed; retry after the seconds in Retry-After.";
  const action = !page && isActionCall(req, target);
  const body = page
    ? unavailablePage()
    : action
      ? unavailableActionPayload()
      : JSON.stringify(isPlantStore(target) ? { error: 503, message } : { error: { code: "service_unavailable", message }, request_id: requestId });
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  res.writeHead(503, {
    "Content-Type": page ? "text/html; charset=utf-8" : action ? "text/x-component" : "application/json",
    "Content-Length": Buffer.byteLength(body),
    "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS),
    "X-Request-Id": requestId,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Cache-Control": "no-store",
    ...(page ? { "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'" } : {}),
  });
  res.end(req.method === "HEAD" ? undefined : body);
  mute(res);
}

/**
 * Watches one request for an outage: a check once it has waited ANSWER_CHECK_MS after arriving
 * whole (and every ANSWER_CHECK_MS after that), and a 500 held back until the database has been
 * asked about. The event stream answers at once and is left alone.
 */
function watchForOutage(req, res, target) {
  const page = isPageRequest(req, target);
  const original = { writeHead: res.writeHead, write: res.write, end: res.end, flushHeaders: res.flushHeaders };
  let answered = false;
  let timer;
  const check = () => {
    timer = undefined;
    if (answered || res.headersSent || res.destroyed) return;
    void databaseReachable().then((reachable) => {
      if (answered || res.headersSent || res.destroyed) return;
      if (!reachable) {
        answered = true;
        Object.assign(res, original);
        return answerUnavailable(req, res, target, page);
      }
      timer = setTimeout(check, ANSWER_CHECK_MS);
    });
  };
  const arm = () => {
    if (!answered && !res.headersSent) timer = setTimeout(check, ANSWER_CHECK_MS);
  };
  res.once("close", () => clearTimeout(timer));
  onBodyArrived(req, arm);

  // A 500: held until the database has been asked about, then sent as it was or replaced.
  let held;
  const hold = (head) => {
    held = { head, chunks: [], ended: false, callbacks: [] };
    clearTimeout(timer);
    res.writeHead = () => res;
    res.flushHeaders = () => {};
    res.write = (chunk, encoding, callback) => {
      held.chunks.push([chunk, typeof encoding === "string" ? encoding : undefined]);
      const done = typeof encoding === "function" ? encoding : callback;
      if (done) held.callbacks.push(done);
      return true;
    };
    res.end = (chunk, encoding, callback) => {
      if (typeof chunk === "function") [chunk, callback] = [undefined, chunk];
      else if (typeof encoding === "function") [encoding, callback] = [undefined, encoding];
      if (chunk != null) held.chunks.push([chunk, encoding]);
      if (callback) held.callbacks.push(callback);
      held.ended = true;
      return res;
    };
    void databaseReachable().then((reachable) => {
      Object.assign(res, original);
      if (answered || res.destroyed) return;
      answered = true;
      if (!reachable) {
        answerUnavailable(req, res, target, page);
        for (const done of held.callbacks) process.nextTick(done);
        return;
      }
      res.writeHead(...held.head);
      for (const [chunk, encoding] of held.chunks) res.write(chunk, encoding);
      for (const done of held.callbacks) process.nextTick(done);
      if (held.ended) res.end();
    });
  };
  const failing = () => !held && !answered && !res.headersSent && res.statusCode === 500;
  res.writeHead = function (status, ...rest) {
    if (status === 500 && !held && !answered && !res.headersSent) {
      hold([status, ...rest]);
      return res;
    }
    return original.writeHead.call(res, status, ...rest);
  };
  for (const name of ["write", "end", "flushHeaders"]) {
    res[name] = function (...args) {
      if (failing()) {
        hold([500]);
        return res[name](...args);
      }
      return original[name].apply(res, args);
    };
  }
}

// Liveness is answered here, before Next.js routes anything and without touching the database,
// so that a busy server still tells a probe at once that its process is up. Until the app has
// started (migrated, background work running) the route answers instead, once start-up is done:
// a 200 from /healthz still means the server serves. Other methods reach the route
// (app/healthz), which answers 405.
const HEALTH_HEADERS = {
  "Content-Type": "text/plain; charset=utf-8",
  "Content-Length": "2",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  ...((process.env.APP_URL ?? "").startsWith("https://") ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
};
const isHealthCheck = (req, target) =>
  globalThis.__chorusServing === true && (req.method === "GET" || req.method === "HEAD") && (target === "/healthz" || target.startsWith("/healthz?"));

// The first answer Next.js sends (whatever its status; not the liveness answers given here): the
// job runner starts on a backlog left by a crash only once the app has shown it serves, with its
// routes loaded (lib/server/background.ts).
let firstAnswered;
globalThis.__chorusFirstAnswer = new Promise((resolve) => (firstAnswered = resolve));

const server = http.createServer({ connectionsCheckingInterval: 1_000 }, (req, res) => {
  const target = req.url ?? "";

  if (isHealthCheck(req, target)) {
    req.resume();
    res.writeHead(200, HEALTH_HEADERS);
    return res.end(req.method === "HEAD" ? undefined : "ok");
  }
  if (shedsUnderLoad(target)) {
    const counted = countsAsWork(target);
    const waitMs = Math.max(databaseWaitMs(), counted ? admittedWaitMs() : 0);
    if (waitMs > OVERLOAD_WAIT_MS) return answerOverloaded(req, res, waitMs);
    if (counted) admit(req, res);
  }
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) {
    answerTooLarge(req, res);
    req.resume();
    return;
  }
  if (req.headers["transfer-encoding"] !== undefined) limitStreamedBody(req, res);
  if (isEventStreamRequest(req, target) && eventStreamEntry()) return void serveEventStream(req, res, target);
  if (countsAsWork(target)) watchForOutage(req, res, target);
  if (firstAnswered) {
    res.once("finish", () => {
      firstAnswered?.();
      firstAnswered = undefined;
    });
  }
  return handle(req, res);
});

/**
 * Counts a streamed body as the HTTP parser hands it over: past the limit nothing more reaches
 * Next.js, the server answers the 413 itself (unless an answer has begun) and Next's own answer
 * is dropped.
 */
function limitStreamedBody(req, res) {
  let size = 0;
  let over = false;
  const push = req.push.bind(req);
  req.push = (chunk, encoding) => {
    if (over) return true;
    if (chunk !== null) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        over = true;
        if (!res.headersSent) {
          answerTooLarge(req, res);
          for (const name of ["writeHead", "setHeader", "appendHeader", "removeHeader", "flushHeaders", "write", "end"]) {
            res[name] = name === "write" ? () => true : () => res;
          }
        }
        return true;
      }
    }
    return push(chunk, encoding);
  };
}
// Slow or broken clients cost nothing: a connection must send its request headers within
// HTTP_HEADERS_TIMEOUT_MS (a slowloris trickling header lines is dropped) and its whole request,
// body included, within HTTP_REQUEST_TIMEOUT_MS (a body shorter than its Content-Length is
// dropped then, with a 408). An idle keep-alive connection is closed after 5 s, and one
// connection serves at most 1,000 requests. Deadlines are checked every second.
server.headersTimeout = HEADERS_TIMEOUT_MS;
server.requestTimeout = REQUEST_TIMEOUT_MS;
server.keepAliveTimeout = 5_000;
server.maxRequestsPerSocket = 1_000;
server.on("upgrade", (req, socket, head) => {
  const pathname = (req.url ?? "/").split("?")[0];
  if (pathname === WS_PATH) return eventSocket(req, socket, head);
  // In development Next's own upgrades (hot reload) go through; nothing else upgrades.
  if (nextUpgrade) return nextUpgrade(req, socket, head);
  socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
});
// A port it cannot listen on (in use, not allowed) ends the process with one line and status 1.
server.on("error", (error) => {
  const reason =
    error.code === "EADDRINUSE"
      ? `port ${port} is already in use by another process`
      : error.code === "EACCES"
        ? `port ${port} needs privileges this process does not have`
        : error.message;
  console.error(`Chorus cannot listen: ${reason}. Stop the other server or set PORT to a free port.`);
  process.exit(1);
});
// Node answers a request it cannot read on its own, before any route sees it: request headers
// over its limit (16 KiB) get a 431 with the API's error body and a request id instead of a bare
// status line; a request too slow to arrive a 408, any other unreadable one a 400, the same way.
const CLIENT_ERRORS = {
  HPE_HEADER_OVERFLOW: [431, "Request Header Fields Too Large", "request_header_fields_too_large", "The request headers are too large (at most 16 KiB in all)."],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout", "request_timeout", "The request did not arrive in time."],
};
server.on("clientError", (error, socket) => {
  if (!socket.writable || socket.destroyed || error.code === "ECONNRESET") return socket.destroy();
  const [status, reason, code, message] = CLIENT_ERRORS[error.code] ?? [400, "Bad Request", "bad_request", "The request could not be read as HTTP."];
  const requestId = requestIdOf();
  // The plant store answers with its own error body; the request line tells where it was sent.
  const target = error.rawPacket?.toString("latin1").split("\r\n", 1)[0].split(" ")[1] ?? "";
  const plantStore = target === "/plant-store" || target.startsWith("/plant-store/");
  const body = JSON.stringify(plantStore ? { error: status, message } : { error: { code, message }, request_id: requestId });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\n` +
      `X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
});
server.listen(port, () => console.log(`Listening on port ${port} (HTTP/1.1 and WebSocket ${WS_PATH}).`));
