import { apiRoute } from "@/lib/api/route";
import { openEventStream, parseLastEventId } from "@/lib/events/stream";
import { corsResponseHeaders } from "@/lib/platform/http/cors";
import { commonSecurityHeaders } from "@/lib/platform/http/security-headers";
import { getEnv } from "@/lib/platform/env";

/**
 * GET /v1/events/stream: the account's events as Server-Sent Events (see openEventStream).
 * Only signed-in people (the inbox asks with ?presence=1) count as present; api tokens never do.
 */
export const streamEvents = apiRoute({ access: { auth: "any" } }, ({ ctx, req }) => {
  const url = new URL(req.url);
  const lastEventId = parseLastEventId(req.headers.get("last-event-id") ?? url.searchParams.get("last_event_id"));
  const presence = url.searchParams.get("presence") === "1" && ctx.token.kind === "session";
  return openEventStream({ ctx, lastEventId, signal: req.signal, presence });
});

const STREAM_PATH = "/v1/events/stream";

/**
 * The event stream answered in the process, without Next.js's request pipeline: the HTTP server
 * (scripts/server.mjs) serves GET /v1/events/stream and every WebSocket on /v1/ws through it.
 * A live connection then holds only its socket and its feed, not a routed request for as long
 * as it stays open (hundreds of agents each keep one). Same handler as the route, and the
 * headers the proxy gives every API answer.
 */
async function answerEventStream(req: Request): Promise<Response> {
  const response = await streamEvents(req, { params: Promise.resolve({}) });
  const headers = {
    ...commonSecurityHeaders({ https: getEnv().APP_URL.startsWith("https://") }),
    ...corsResponseHeaders(STREAM_PATH, req.headers),
  };
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

// On globalThis: the HTTP server (scripts/server.mjs) runs outside the app's bundles and finds
// the app's one stream entry there, as it finds the database handle.
const holder = globalThis as unknown as { __chorusEventStream?: (req: Request) => Promise<Response> };

/** Hands the in-process entry to the HTTP server, which runs outside the app's bundles. */
export function offerEventStream() {
  holder.__chorusEventStream = answerEventStream;
}
