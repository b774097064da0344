import { defineRoute } from "@/lib/api/route";
import { streamEvents } from "@/lib/server/event-stream";

export const dynamic = "force-dynamic";

// The production server answers this path in the process (lib/server/event-stream.ts); this
// route serves it under `next dev` and to anything that reaches Next.js directly.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({ GET: streamEvents });
