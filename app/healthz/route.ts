import { notServed } from "@/lib/api/route";

export const dynamic = "force-dynamic";

/** Liveness: answers without touching the database or requiring a token. */
export function GET() {
  return new Response("ok", { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

export const POST = notServed("GET, HEAD");
export { POST as PUT, POST as PATCH, POST as DELETE, POST as OPTIONS };
