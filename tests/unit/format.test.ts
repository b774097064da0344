import { describe, expect, it } from "vitest";
import { formatBytes, formatClockTime, formatDuration, formatRelative } from "@/components/ui/format";

describe("formatBytes", () => {
  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [1024, "1 KB"],
    [5000, "4.9 KB"],
    [10 * 1024 * 1024, "10 MB"],
    [150 * 1024 * 1024, "150 MB"],
  ])("%i bytes → %s", (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe("formatDuration", () => {
  it.each([
    [null, "—"],
    [0, "0 s"],
    [44.6, "45 s"],
    [60, "1 min"],
    [200, "3 min 20 s"],
    [3600, "1 h"],
    [7500, "2 h 5 min"],
    [86_400 * 3 + 3600 * 4, "3 d 4 h"],
  ])("%s seconds → %s", (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});

describe("formatClockTime", () => {
  it("reads as the reader's locale writes hours and minutes, call after call", () => {
    for (const iso of ["2026-11-24T09:05:00Z", "2026-11-24T21:45:30Z", "2026-01-01T00:00:00Z"]) {
      const expected = new Date(iso).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
      expect(formatClockTime(iso)).toBe(expected);
      expect(formatClockTime(iso)).toBe(expected);
    }
  });
});

describe("formatRelative", () => {
  const now = Date.parse("2026-11-24T12:00:00Z");
  it.each([
    [null, "never"],
    ["2026-11-24T11:59:30Z", "just now"],
    ["2026-11-24T11:55:00Z", "5 minutes ago"],
    ["2026-11-24T14:00:00Z", "in 2 hours"],
    ["2026-11-23T12:00:00Z", "yesterday"],
  ])("%s → %s", (iso, text) => {
    expect(formatRelative(iso, now)).toBe(text);
  });
});
