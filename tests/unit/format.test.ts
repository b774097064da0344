import { describe, expect, it } from "vitest";
import { formatBytes, formatDuration } from "@/components/ui/format";

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
