import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, toPage } from "@/lib/platform/cursor";
import { ApiError } from "@/lib/platform/errors";

describe("cursor", () => {
  const position = { t: new Date("2026-11-22T10:15:30.123Z"), id: "conv_01abc" };

  it("round-trips a position with millisecond precision", () => {
    const decoded = decodeCursor(encodeCursor(position));
    expect(decoded.t.toISOString()).toBe("2026-11-22T10:15:30.123Z");
    expect(decoded.id).toBe("conv_01abc");
  });

  it.each([
    ["a changed payload", (c: string) => Buffer.from('["2030-01-01T00:00:00.000Z","conv_x"]').toString("base64url") + "." + c.split(".")[1]],
    ["a changed signature", (c: string) => c.slice(0, -2) + (c.endsWith("AA") ? "BB" : "AA")],
    ["no signature", (c: string) => c.split(".")[0]],
    ["garbage", () => "not-a-cursor"],
    ["an extra segment", (c: string) => `${c}.x`],
  ])("refuses %s with a 400 naming cursor", (_name, tamper) => {
    try {
      decodeCursor(tamper(encodeCursor(position)));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(400);
      expect((error as ApiError).details?.[0].path).toBe("cursor");
    }
  });

  it("hands out a cursor only when another page exists", () => {
    const rows = [1, 2, 3].map((n) => ({ t: new Date(n * 1000), id: `x${n}` }));
    const full = toPage(rows, 2, (r) => r, (r) => r.id);
    expect(full.data).toEqual(["x1", "x2"]);
    expect(full.pagination.has_more).toBe(true);
    expect(decodeCursor(full.pagination.next_cursor!).id).toBe("x2");
    const last = toPage(rows.slice(0, 2), 2, (r) => r, (r) => r.id);
    expect(last.pagination).toEqual({ next_cursor: null, has_more: false });
  });
});
