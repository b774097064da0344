// The event stream (GET /v1/events/stream) answered in this process. The app hands its entry over
// on globalThis once started (lib/server/event-stream.ts): the same handler as the route, so
// authentication, rate limits, scope filtering, resume and presence are the route's own code.
// Served here instead of through Next.js, a connection that stays open for hours holds only its
// socket and its feed, not a routed request with everything Next.js keeps for one.

import { randomUUID } from "node:crypto";

export const STREAM_PATH = "/v1/events/stream";

/** Whether the server can answer the stream itself (the app has started and offered its entry). */
export const eventStreamEntry = () => globalThis.__chorusEventStream;

export const isEventStreamRequest = (req, target) =>
  req.method === "GET" && (target === STREAM_PATH || target.startsWith(`${STREAM_PATH}?`));

/** A fetch Request for the app from a Node request's address and headers. */
export function toFetchRequest(target, rawHeaders, signal) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(rawHeaders)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else headers.set(name, value);
  }
  return new Request(`http://localhost${target}`, { headers, signal });
}

function drained(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** Serves GET /v1/events/stream: the app's Response written to the Node response as it comes. */
export async function serveEventStream(req, res, target) {
  const controller = new AbortController();
  res.once("close", () => controller.abort());
  let response;
  try {
    response = await eventStreamEntry()(toFetchRequest(target, req.headers, controller.signal));
  } catch (error) {
    console.error(`event stream: ${error instanceof Error ? error.message : "failed"}`);
    if (!res.headersSent && !res.destroyed) {
      res.writeHead(500, { "Content-Type": "application/json", "Cache-Control": "no-store" });
      res.end(JSON.stringify({ error: { code: "internal_error", message: "The event stream could not be opened." }, request_id: `req_${randomUUID().replace(/-/g, "")}` }));
    }
    return;
  }
  req.resume();
  const headers = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  if (res.destroyed) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  res.writeHead(response.status, headers);
  if (!response.body) return res.end();
  const reader = response.body.getReader();
  res.once("close", () => reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      // A client that reads slower than events come is waited for, not buffered without end.
      if (!res.write(value)) await drained(res);
    }
  } catch {
    // The client went away, or the feed failed: the connection ends and the client resumes.
  }
  if (!res.destroyed) res.end();
}
