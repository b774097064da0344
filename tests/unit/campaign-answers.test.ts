import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SystemContext } from "@/lib/auth/context";
import type { HandedOver } from "@/lib/messages/send-queued-message";

// Each write of answers, as the recorder hands it to the database: when it began, and what it held.
const writes: { at: number; ids: string[]; finish: () => void }[] = [];
vi.mock("@/lib/messages/send-queued-message", () => ({
  recordSentMessages: (_ctx: unknown, list: HandedOver[]) =>
    new Promise<void>((resolve) => writes.push({ at: Date.now(), ids: list.map((h) => h.message.id), finish: resolve })),
}));

const { answerRecorder } = await import("@/lib/campaigns/outcomes");
const answer = (id: string) => ({ message: { id }, integration: {}, networkMessageId: `wamid.${id}` }) as unknown as HandedOver;
const ctx = {} as SystemContext;

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
  writes.length = 0;
});
afterEach(() => vi.useRealTimers());

/**
 * The network's answers to a campaign's sends are recorded together; until recorded, a crash
 * leaves their recipients `interrupted`. The window in which an answer waits must stay short.
 */
describe("the campaign's answer recorder", () => {
  it("records an answer within the gather window, with the answers that came meanwhile", async () => {
    const record = answerRecorder(ctx, 50);
    void record(answer("a"));
    await vi.advanceTimersByTimeAsync(20);
    void record(answer("b"));
    await vi.advanceTimersByTimeAsync(30);
    expect(writes.map((w) => [w.at - 1_000_000, w.ids])).toEqual([[50, ["a", "b"]]]);
  });

  it("records the answers that came during a slow write as soon as it ends, without a further wait", async () => {
    const record = answerRecorder(ctx, 50);
    const first = record(answer("a"));
    await vi.advanceTimersByTimeAsync(50);
    expect(writes).toHaveLength(1);
    // The database is busy: the first write takes 300 ms; answers keep coming meanwhile.
    const second = record(answer("b"));
    await vi.advanceTimersByTimeAsync(100);
    void record(answer("c"));
    await vi.advanceTimersByTimeAsync(200);
    writes[0].finish();
    expect(await first).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    // b has waited 300 ms already: written the moment the first write is done.
    expect(writes.map((w) => [w.at - 1_000_000, w.ids])).toEqual([
      [50, ["a"]],
      [350, ["b", "c"]],
    ]);
    writes[1].finish();
    expect(await second).toBe(true);
  });
});
