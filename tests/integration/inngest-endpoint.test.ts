import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setEnv } from "@/tests/support/env-vars";

let restoreEnv: (() => void) | undefined;

afterEach(() => {
  vi.restoreAllMocks();
  restoreEnv?.();
  restoreEnv = undefined;
  vi.resetModules();
});

/** Loads /api/inngest afresh, so its Inngest client is built from the environment set for the case. */
async function loadRoute(vars: Record<string, string | undefined>) {
  restoreEnv = setEnv({
    JOBS_BACKEND: undefined,
    INNGEST_EVENT_KEY: undefined,
    INNGEST_SIGNING_KEY: undefined,
    INNGEST_BASE_URL: undefined,
    INNGEST_DEV: undefined,
    ...vars,
  });
  vi.resetModules();
  return import("@/app/api/inngest/route");
}

const runJobCall = () =>
  JSON.stringify({
    event: { name: "chorus/job.requested", data: { jobId: 1, kind: "nothing.here", payload: {} }, ts: Date.now() },
    events: [{ name: "chorus/job.requested", data: { jobId: 1, kind: "nothing.here", payload: {} }, ts: Date.now() }],
    steps: {},
    ctx: { run_id: "01JTESTRUN0000000000000000", attempt: 0, disable_immediate_execution: true, use_api: false, stack: { stack: [], current: 0 } },
    version: 1,
  });

const request = (method: string, body?: string) =>
  new NextRequest(`http://localhost/api/inngest${method === "POST" ? "?fnId=chorus-run-job&stepId=step" : ""}`, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body,
  });

describe("/api/inngest", () => {
  it("answers 404 to every method with the local job runner", async () => {
    const route = await loadRoute({ JOBS_BACKEND: "local" });
    for (const [method, handler] of [["GET", route.GET], ["POST", route.POST], ["PUT", route.PUT]] as const) {
      const res = await handler(request(method, method === "GET" ? undefined : runJobCall()), {});
      expect(res.status, method).toBe(404);
      expect((await res.json()).error.code).toBe("not_found");
    }
  });

  it("refuses an unsigned call with JOBS_BACKEND=inngest, even when INNGEST_BASE_URL names a server", async () => {
    const route = await loadRoute({
      JOBS_BACKEND: "inngest",
      INNGEST_BASE_URL: "http://127.0.0.1:8288",
      INNGEST_EVENT_KEY: "test-event-key",
      INNGEST_SIGNING_KEY: "signkey-test-0123456789abcdef0123456789abcdef",
    });
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await route.POST(request("POST", runJobCall()), {});
    expect(res.status).toBe(401);
  });

  it("accepts unsigned calls only in the dev mode INNGEST_DEV asks for", async () => {
    const route = await loadRoute({ JOBS_BACKEND: "inngest", INNGEST_DEV: "1" });
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await route.POST(request("POST", runJobCall()), {});
    expect(res.status).not.toBe(401);
    expect(res.status).not.toBe(404);
    const { inngest } = await import("@/inngest/client");
    expect(inngest.mode).toBe("dev");
  });
});
