// GET /v1/ws: the account's events over a WebSocket. Each socket is carried by the app's own
// SSE stream (GET /v1/events/stream, answered in this process: scripts/event-stream.mjs), so
// authentication, scope filtering, resume from last_event_id, presence and the end of a revoked
// token's stream are the same code for both transports; the socket only re-frames `data:` lines
// as text messages.
//
// A socket says when it is live: `{"type":"ready"}` is sent once the upstream stream has
// written `: connected` (every event committed after it is delivered). Events committed
// between the upgrade and `ready` are not lost: without a last_event_id, the upstream stream
// is opened from the upgrade moment (an event id made of that time, less a small margin for
// transactions in flight and clocks of other instances), so it replays them first.
import { WebSocketServer } from "ws";
import { eventStreamEntry, STREAM_PATH, toFetchRequest } from "./event-stream.mjs";

export const WS_PATH = "/v1/ws";
const PING_MS = Number(process.env.WS_PING_MS ?? 25_000);
const RESUME_DELAY_MS = 500;
const MAX_RESUMES_PER_MINUTE = 10;
// Events whose ids were made this long before the upgrade are replayed too: an id is made
// when its transaction records it, a moment before it commits, perhaps on another instance.
const REPLAY_MARGIN_MS = 2_000;
const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

/** The lowest event id made at `ms` (ids are `evt_` + a lower-case ULID: 10 time characters, 16 random). */
export function eventIdAt(ms) {
  let time = "";
  for (let rest = Math.max(0, Math.floor(ms)), i = 0; i < 10; i++, rest = Math.floor(rest / 32)) time = CROCKFORD[rest % 32] + time;
  return `evt_${time}${"0".repeat(16)}`;
}

// Close codes: 4401 bad or revoked token, 4403 not allowed, 4400 bad request, 1011 server error.
function closeCodeFor(status) {
  if (status === 401) return 4401;
  if (status === 403) return 4403;
  if (status >= 400 && status < 500) return 4400;
  return 1011;
}

// A close reason is at most 123 bytes.
const reasonText = (text) => Buffer.from(String(text)).subarray(0, 120).toString().replace(/\uFFFD$/, "");

// The socket's peer address, as the server stamps it on every HTTP request (a client cannot set
// it: the socket's request is built from the names below only).
const PEER_ADDRESS_HEADER = "x-chorus-peer-address";
const FORWARDED_HEADERS = ["user-agent", "x-forwarded-for", "x-forwarded-proto", "x-forwarded-host"];
const STARTING_WAIT_MS = 10_000;

/** The app's in-process stream entry; waits while the app is still starting (at most 10 s). */
async function eventStreamReady() {
  for (let waited = 0; !eventStreamEntry() && waited < STARTING_WAIT_MS; waited += 100) await new Promise((r) => setTimeout(r, 100));
  return eventStreamEntry();
}

function tokenFrom(req, url) {
  const protocols = (req.headers["sec-websocket-protocol"] ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  if (protocols[0] === "bearer" && protocols[1]) return protocols[1];
  return url.searchParams.get("access_token") || undefined;
}

/**
 * @returns {(req: import("node:http").IncomingMessage, socket: import("node:stream").Duplex, head: Buffer) => void}
 */
export function createEventSocketHandler() {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: 4096,
    // No compression: a permessage-deflate context holds about 300 KB of zlib state per socket,
    // and events are small JSON messages.
    perMessageDeflate: false,
    // The token travels as the second subprotocol; only `bearer` is answered.
    handleProtocols: (protocols) => (protocols.has("bearer") ? "bearer" : false),
  });

  wss.on("connection", (ws, req) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const token = tokenFrom(req, url);
    // Replayed from here: what the client last saw, else the moment of the upgrade.
    let lastEventId = url.searchParams.get("last_event_id") ?? eventIdAt(Date.now() - REPLAY_MARGIN_MS);
    let ready = false;
    const presence = url.searchParams.get("presence") === "1";
    const peer = req.socket.remoteAddress ?? "unknown";
    const resumes = [];
    let upstream;
    let closed = false;

    const close = (code, reason) => {
      if (closed) return;
      closed = true;
      clearInterval(ping);
      upstream?.abort();
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(code, reasonText(reason));
    };

    const ping = setInterval(() => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: "ping" }));
    }, PING_MS);
    ws.on("close", () => {
      closed = true;
      clearInterval(ping);
      upstream?.abort();
    });
    ws.on("error", () => close(1011, "socket error"));
    // Clients only listen; anything they send is ignored.
    ws.on("message", () => {});

    const open = async () => {
      if (closed) return;
      const entry = await eventStreamReady();
      if (closed) return;
      if (!entry) return close(1013, "the server is starting; try again");
      const query = new URLSearchParams();
      if (lastEventId) query.set("last_event_id", lastEventId);
      if (presence) query.set("presence", "1");
      // Never the browser's cookie: any web page may open a WebSocket to this host with it.
      const headers = { accept: "text/event-stream", [PEER_ADDRESS_HEADER]: peer };
      if (token) headers.authorization = `Bearer ${token}`;
      for (const name of FORWARDED_HEADERS) {
        if (req.headers[name]) headers[name] = req.headers[name];
      }
      const controller = new AbortController();
      upstream = controller;
      let res;
      try {
        res = await entry(toFetchRequest(`${STREAM_PATH}?${query}`, headers, controller.signal));
      } catch {
        return close(1011, "event stream unavailable");
      }
      if (closed) return void res.body?.cancel().catch(() => {});
      if (res.status !== 200) {
        let message = `HTTP ${res.status}`;
        try {
          message = (await res.json()).error?.message ?? message;
        } catch {
          // not JSON: keep the status
        }
        return close(closeCodeFor(res.status), message);
      }
      const reader = res.body.getReader();
      controller.signal.addEventListener("abort", () => reader.cancel().catch(() => {}));
      const decoder = new TextDecoder();
      let pending = "";
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done || closed) break;
          pending += decoder.decode(value, { stream: true });
          let end;
          while ((end = pending.indexOf("\n\n")) !== -1) {
            const block = pending.slice(0, end);
            pending = pending.slice(end + 2);
            let id;
            let connected = false;
            const data = [];
            for (const line of block.split("\n")) {
              if (line.startsWith("id: ")) id = line.slice(4);
              else if (line.startsWith("data: ")) data.push(line.slice(6));
              else if (line === ": connected") connected = true;
            }
            if (data.length && ws.readyState === ws.OPEN) ws.send(data.join("\n"));
            if (id) lastEventId = id;
            // Once per socket: a resumed upstream replays from the last event sent, so the
            // socket stays live through it.
            if (connected && !ready && ws.readyState === ws.OPEN) {
              ready = true;
              ws.send(JSON.stringify({ type: "ready" }));
            }
          }
        }
      } catch {
        // The feed failed: resumed below like an ended one.
      }
      // The stream ended on the server's side (a revoked token, a restart of the event hub):
      // resume from the last event sent; a token no longer valid then closes with 4401.
      if (closed) return;
      const now = Date.now();
      while (resumes.length && resumes[0] < now - 60_000) resumes.shift();
      if (resumes.length >= MAX_RESUMES_PER_MINUTE) return close(1011, "event stream keeps ending");
      resumes.push(now);
      setTimeout(() => void open(), RESUME_DELAY_MS);
    };
    void open();
  });

  return (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
}
