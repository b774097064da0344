import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { createSession } from "@/lib/auth/sessions";
import { recordEvent } from "@/lib/events/record-event";
import { openEventStream } from "@/tests/support/event-stream";
import { createTestAccount } from "@/tests/support/fixtures";
import { systemContext } from "@/lib/server/context";

// Many agents' live streams: each checks its token against the database before every event it is
// handed (a revoked one must see nothing more), but those checks share one read.

describe("GET /v1/events/stream with many connections", () => {
  it("checks the tokens of 30 streams with one read of the database per event, not one each", async () => {
    const { account, admin } = await createTestAccount();
    const streams = [];
    for (let i = 0; i < 30; i++) streams.push(await openEventStream((await createSession(systemContext().db, { user: admin })).token));
    const select = vi.spyOn(getDb(), "select");
    try {
      const event = await getDb().transaction((tx) => recordEvent({ ...systemContext(), db: tx }, { accountId: account.id, type: "conversation.created", data: { n: 1 } }));
      for (const stream of streams) expect(await stream.until(() => stream.events.some((e) => e.id === event.id), 5000)).toBe(true);
      // The event itself (read once for every stream) and the tokens' check.
      expect(select.mock.calls.length).toBeLessThanOrEqual(3);
    } finally {
      select.mockRestore();
      streams.forEach((stream) => stream.close());
    }
  });
});
