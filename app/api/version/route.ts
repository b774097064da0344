import { notServed } from "@/lib/api/route";
import { versionOutput } from "@/lib/server/schemas";
import { APP_VERSION } from "@/lib/server/version";

export const dynamic = "force-dynamic";

/**
 * The release this server runs, for an owner checking an upgrade took effect and for a script
 * or load balancer telling old servers from new ones during a rolling switch. No token, no
 * database: the version is public already (the API reference's `info.version`).
 */
export function GET() {
  return Response.json(versionOutput.parse({ version: APP_VERSION }), { headers: { "Cache-Control": "no-store" } });
}

export const POST = notServed("GET, HEAD");
export { POST as PUT, POST as PATCH, POST as DELETE, POST as OPTIONS };
