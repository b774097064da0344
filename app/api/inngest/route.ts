import type { NextRequest } from "next/server";
import { serve } from "inngest/next";
import { functions, inngest } from "@/inngest";
import { errorResponse } from "@/lib/api/errors";
import { notServed } from "@/lib/api/route";
import { requestIdOf } from "@/lib/platform/http/request";
import { getEnv } from "@/lib/platform/env";

const handlers = serve({ client: inngest, functions });

type Handler = (req: NextRequest, ctx: unknown) => Promise<Response>;

/** With the local job runner there is nothing to serve: the endpoint does not exist. */
function whenInngest(handler: Handler): Handler {
  return async (req, ctx) => {
    if (getEnv().JOBS_BACKEND !== "inngest") {
      return errorResponse(requestIdOf(req), 404, "not_found", "Not found: background work does not run on Inngest here (JOBS_BACKEND=local).");
    }
    return handler(req, ctx);
  };
}

export const GET = whenInngest(handlers.GET);
export const POST = whenInngest(handlers.POST);
export const PUT = whenInngest(handlers.PUT);
export const PATCH = notServed("GET, HEAD, POST, PUT");
export { PATCH as DELETE, PATCH as OPTIONS };
