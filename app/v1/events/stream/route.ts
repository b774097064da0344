import { apiRoute, defineRoute } from "@/lib/api/route";
import { openEventStream, parseLastEventId } from "@/lib/events/stream";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "any" } }, ({ ctx, req }) => {
    const url = new URL(req.url);
    const lastEventId = parseLastEventId(req.headers.get("last-event-id") ?? url.searchParams.get("last_event_id"));
    // Only signed-in people (the inbox asks with ?presence=1) count as present; api tokens never do.
    const presence = url.searchParams.get("presence") === "1" && ctx.token.kind === "session";
    return openEventStream({ ctx, lastEventId, signal: req.signal, presence });
  }),
});
