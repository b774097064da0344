import { describe, expect, it } from "vitest";
import { CATCH_UP_SPEED, MAX_LAG_MS, nextSlotAt, startPace, takeSlot, warmUpWaitMs } from "@/lib/campaigns/pace";

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
  it("sends at the configured rate whatever the bookkeeping between shares takes (up to half a second of it)", () => {
    for (const overheadMs of [0, 50, 300, 450]) {
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

  it("makes up a delay at most twice as fast as its pace, and never more than a second of it after a stall", () => {
    const pace = startPace(80, 0);
    for (let i = 0; i < 80; i++) takeSlot(pace, 0);
    // The next share starts 400 ms late: its sends go twice as fast until the pace is caught up.
    let now = 1400;
    const late: number[] = [];
    for (let i = 0; i < 80; i++) {
      const at = takeSlot(pace, now);
      now = Math.max(now, at);
      late.push(now);
    }
    expect(late[0]).toBe(1400);
    expect(late[1] - late[0]).toBe(12.5 / CATCH_UP_SPEED);
    // 400 ms made up by the end of the second: the last send of the share is on schedule.
    expect(late[79]).toBeCloseTo(1987.5, 5);

    // A stall of ten seconds: at most MAX_LAG_MS of it is made up, twice as fast as the pace.
    now = 12_000;
    const after: number[] = [];
    for (let i = 0; i < 400; i++) {
      const at = takeSlot(pace, now);
      now = Math.max(now, at);
      after.push(now);
    }
    for (let i = 1; i < after.length; i++) expect(after[i] - after[i - 1]).toBeGreaterThanOrEqual(12.5 / CATCH_UP_SPEED - 1e-9);
    // 400 sends: back on the schedule that starts a second before the stall ended.
    expect(after[399]).toBeCloseTo(12_000 - MAX_LAG_MS + 399 * 12.5, 0);
  });

  it("keeps the rate over a stall: only the stall itself beyond a second is lost", () => {
    const { sends } = simulate({ perSecond: 80, seconds: 60, overheadMs: 100, stallAt: { at: 20_000, ms: 3000 } });
    expect(sends.length).toBeGreaterThanOrEqual(80 * (60 - 2) - 10);
  });

  it("waits for the server to warm up: until a while after its runner first took up a campaign", () => {
    expect(warmUpWaitMs(0, 5000)).toBe(5000);
    expect(warmUpWaitMs(1200, 5000)).toBe(3800);
    expect(warmUpWaitMs(5000, 5000)).toBe(0);
    expect(warmUpWaitMs(3_600_000, 5000)).toBe(0);
  });
});
