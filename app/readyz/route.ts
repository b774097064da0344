import { notServed } from "@/lib/api/route";
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from "@/lib/platform/errors";
import { checkReadiness } from "@/lib/server/readiness";

export const dynamic = "force-dynamic";

/** Readiness: 200 when the database (and Redis, when configured) answers, 503 with Retry-After otherwise. No token needed. */
export async function GET() {
  const readiness = await checkReadiness();
  const ready = readiness.status === "ready";
  return Response.json(readiness, {
    status: ready ? 200 : 503,
    headers: { "Cache-Control": "no-store", ...(ready ? {} : { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS) }) },
  });
}

export const POST = notServed("GET, HEAD");
export { POST as PUT, POST as PATCH, POST as DELETE, POST as OPTIONS };
