import { afterEach, describe, expect, it, vi } from "vitest";
import { startOpening, takeOpening } from "@/components/inbox/open-request";

// The request that opens a conversation leaves at the click; the view that mounts afterwards
// takes that one instead of sending its own, and never an old one.
const calls: string[] = [];
function answering() {
  calls.length = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      calls.push(url);
      return new Response(JSON.stringify({ id: "conv_1", messages: { data: [], pagination: { next_cursor: null, has_more: false } } }), { status: 200 });
    }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("opening a conversation from the list", () => {
  it("sends one request at the click and the view takes it", async () => {
    answering();
    startOpening("conv_1");
    expect(calls).toEqual(["/v1/conversations/conv_1?include=messages%2Cnotes%2Cactivity&limit=50"]);
    const result = await takeOpening("conv_1");
    expect(result.ok).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it("each request is taken once: opening it again asks the server again", async () => {
    answering();
    startOpening("conv_1");
    await takeOpening("conv_1");
    await takeOpening("conv_1");
    expect(calls).toHaveLength(2);
  });

  it("a request sent long before the view mounts is not used", async () => {
    answering();
    vi.useFakeTimers({ toFake: ["performance"] });
    startOpening("conv_1");
    vi.advanceTimersByTime(5_000);
    await takeOpening("conv_1");
    expect(calls).toHaveLength(2);
  });
});
