import { describe, expect, it } from "vitest";
import { periodsFrom } from "@/lib/search/periods";

// The periods a message is tagged with (the same format as chorus_search_periods in the database).
const tagsOf = (at: Date) => {
  const iso = at.toISOString();
  const [y, m, d, h] = [iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10), iso.slice(11, 13)];
  return [`h${y}${m}${d}${h}`, `d${y}${m}${d}`, `m${y}${m}`, `y${y}`];
};

describe("search periods from a moment on", () => {
  it("cover every moment from the start of `from`'s hour to the end of next year, and nothing before", () => {
    const now = new Date("2026-11-27T07:30:00.000Z");
    for (const from of ["2026-11-27T06:30:00Z", "2026-11-26T07:30:00Z", "2026-10-27T23:59:59Z", "2025-11-26T00:00:00Z", "2019-02-28T13:10:00Z", "2026-12-31T23:00:00Z"]) {
      const { query, coveredFrom } = periodsFrom(new Date(from), now);
      const terms = new Set(query.split(" | "));
      expect(terms.size).toBeLessThanOrEqual(80);
      expect(coveredFrom.getTime()).toBe(Math.floor(new Date(from).getTime() / 3_600_000) * 3_600_000);
      for (let t = coveredFrom.getTime() - 72 * 3_600_000; t < Date.UTC(2028, 0, 1); t += 3_600_000 * 7 + 1_234_567) {
        const covered = tagsOf(new Date(t)).some((tag) => terms.has(tag));
        expect(covered, `${new Date(t).toISOString()} from ${from}`).toBe(t >= coveredFrom.getTime());
      }
    }
  });
});
