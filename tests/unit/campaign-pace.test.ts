import { describe, expect, it } from "vitest";
import { MAX_LAG_MS, nextSlotAt, startPace, takeSlot, warmUpWaitMs } from "@/lib/campaigns/pace";

/**
 * A pacer as the dispatch job runs one, on a fake clock: shares of a second's worth, each send
 * waiting for its slot, and `overheadMs` of bookkeeping before each share (reading the next
 * recipients, making them ready) that the schedule must not add to the pace.
 */
function simulate({ perSecond, seconds, overheadMs, stallAt }: { perSecond: number; seconds: number; overheadMs: number; stallAt?: { at: number; ms: number } }) {
  let now = 1_000_000;
  const pace = startPace(perSecond, now);
  const end = now + seconds * 1000;
  const sends: number[] = [];
  let stalled = false;
  while (now < end) {
    now += overheadMs;
    if (stallAt && !stalled && now - 1_000_000 >= stallAt.at) {
      now += stallAt.ms;
      stalled = true;
    }
    for (let i = 0; i < perSecond; i++) {
      const at = takeSlot(pace, now);
      now = Math.max(now, at);
      if (now >= end) break;
      sends.push(now);
    }
  }
  return { sends, pace };
}

describe("a campaign's pace", () => {
  it("sends at the configured rate whatever the bookkeeping between shares takes", () => {
    for (const overheadMs of [0, 50, 300, 700]) {
      const { sends } = simulate({ perSecond: 80, seconds: 60, overheadMs });
      // 60 s at 80/s, the first share's bookkeeping aside.
      expect(sends.length, `${overheadMs} ms per share`).toBeGreaterThanOrEqual(80 * 60 - Math.ceil((overheadMs / 1000) * 80) - 1);
      expect(sends.length).toBeLessThanOrEqual(80 * 60);
    }
  });

  it("spreads the sends of a second evenly over it", () => {
    const pace = startPace(80, 0);
    const slots = Array.from({ length: 80 }, () => takeSlot(pace, 0));
    expect(slots[0]).toBe(0);
    expect(slots[1]).toBe(12.5);
    expect(slots[79]).toBe(987.5);
    expect(nextSlotAt(pace)).toBe(1000);
  });

  it("makes up a short delay, but never more than a second's worth after a stall", () => {
    const pace = startPace(80, 0);
    for (let i = 0; i < 80; i++) takeSlot(pace, 0);
    // The next share starts 400 ms late: its first sends go at once until the pace is caught up.
    expect(takeSlot(pace, 1400)).toBe(1000);
    // A stall of ten seconds: at most MAX_LAG_MS behind, so at most a second's worth at once.
    const after = 12_000;
    const burst = [];
    for (;;) {
      const at = takeSlot(pace, after);
      if (at > after) break;
      burst.push(at);
    }
    expect(burst.length).toBeLessThanOrEqual((MAX_LAG_MS / 1000) * 80 + 1);
    expect(burst[0]).toBe(after - MAX_LAG_MS);
  });

  it("keeps the rate over a stall: only the stall itself beyond a second is lost", () => {
    const { sends } = simulate({ perSecond: 80, seconds: 60, overheadMs: 100, stallAt: { at: 20_000, ms: 3000 } });
    expect(sends.length).toBeGreaterThanOrEqual(80 * (60 - 2) - 10);
  });

  it("waits for the process to warm up only on its first run after a start", () => {
    expect(warmUpWaitMs(0, 5000)).toBe(5000);
    expect(warmUpWaitMs(1200, 5000)).toBe(3800);
    expect(warmUpWaitMs(5000, 5000)).toBe(0);
    expect(warmUpWaitMs(3_600_000, 5000)).toBe(0);
  });
});
