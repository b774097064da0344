// What the HTTP server refuses before Next.js sees a request: a body over the largest any route
// accepts, and the header and whole-request time limits (from the environment, checked at start).
import { randomUUID } from "node:crypto";

// The largest body any route accepts (a message's media, LARGE_BODY_LIMIT in
// lib/platform/http/read-body.ts). A larger body is refused here, before Next.js buffers any of
// it: a declared Content-Length at once, without reading the body; a streamed (chunked) body as
// soon as it passes the limit, the rest discarded. The connection closes after the answer.
export const MAX_BODY_BYTES = 32 * 1024 * 1024;
export const requestIdOf = () => `req_${randomUUID().replace(/-/g, "")}`;
export const isPlantStore = (target) => target === "/plant-store" || target.startsWith("/plant-store/") || target.startsWith("/plant-store?");

/** The 413 with the error body of the API addressed (the plant store has its own). */
export function answerTooLarge(req, res) {
  const requestId = requestIdOf();
  const message = `The request body is larger than ${MAX_BODY_BYTES} bytes.`;
  const body = JSON.stringify(isPlantStore(req.url ?? "") ? { error: 413, message } : { error: { code: "payload_too_large", message }, request_id: requestId });
  const socket = req.socket;
  // Whatever the client still sends is read and dropped for a few seconds at most: closing on
  // unread data resets the connection, and a client still busy sending would lose the answer
  // already on its way. Node closes a `Connection: close` socket as soon as the answer is
  // written (destroySoon), so that close becomes a half-close here (the answer ends our side,
  // the client's bytes are still read), with the socket destroyed 5 s later.
  socket.destroySoon = function lingeringClose() {
    if (this.writable) this.end();
    setTimeout(() => this.destroy(), 5_000).unref();
  };
  res.on("finish", () => setTimeout(() => socket.destroy(), 5_000).unref());
  res.writeHead(413, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    "X-Request-Id": requestId,
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
    Connection: "close",
  });
  res.end(body);
}

/** A duration in milliseconds from the environment, checked like the app's own variables (one line, then exit). */
function durationFromEnv(name, fallback) {
  const value = process.env[name];
  if (value === undefined || value === "") return fallback;
  if (!/^\d{1,7}$/.test(value) || Number(value) < 100) {
    console.error(`Invalid environment variable ${name}: must be a number of milliseconds from 100 to 9999999`);
    process.exit(1);
  }
  return Number(value);
}
export const HEADERS_TIMEOUT_MS = durationFromEnv("HTTP_HEADERS_TIMEOUT_MS", 10_000);
export const REQUEST_TIMEOUT_MS = durationFromEnv("HTTP_REQUEST_TIMEOUT_MS", 120_000);
if (REQUEST_TIMEOUT_MS < HEADERS_TIMEOUT_MS) {
  console.error("Invalid environment variable HTTP_REQUEST_TIMEOUT_MS: must not be shorter than HTTP_HEADERS_TIMEOUT_MS");
  process.exit(1);
}
