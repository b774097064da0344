import { notServed } from "@/lib/api/route";
import { authorizationServerMetadata } from "@/lib/oauth/metadata";

export const dynamic = "force-dynamic";

/** RFC 8414 authorization server metadata. */
export function GET() {
  return Response.json(authorizationServerMetadata(), { headers: { "Cache-Control": "public, max-age=300" } });
}

export const POST = notServed("GET");
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
export const OPTIONS = POST;
