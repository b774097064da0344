import { describe, expect, it } from "vitest";
import { errorToResponse } from "@/lib/api/errors";
import { JSON_BODY_LIMIT, readBody } from "@/lib/platform/http/read-body";

/** A request whose body stops half-way the way a client that goes away does: the socket's reset. */
function abandonedRequest() {
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(new TextEncoder().encode('{"text":"half'));
        return;
      }
      controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
    },
  });
  return new Request("http://localhost/v1/messages", { method: "POST", body, duplex: "half" } as RequestInit & { duplex: "half" });
}

describe("the body reader", () => {
  it("takes a body the client stopped sending for a fault of the request, not a database outage", async () => {
    const error = await readBody(abandonedRequest(), JSON_BODY_LIMIT).catch((e: unknown) => e);
    const response = errorToResponse(error, "req_test");
    expect(response.status).toBe(400);
    expect(response.headers.get("retry-after")).toBeNull();
    const body = (await response.json()) as { error: { code: string; details: { path: string }[] } };
    expect(body.error.code).toBe("validation_error");
    expect(body.error.details[0].path).toBe("body");
  });

  it("still reads a whole body", async () => {
    const request = new Request("http://localhost/v1/messages", { method: "POST", body: '{"text":"hi"}' });
    expect((await readBody(request, JSON_BODY_LIMIT)).toString()).toBe('{"text":"hi"}');
  });
});
