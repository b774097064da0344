import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { recordEvent } from "@/lib/events/record-event";
import { openEventStream } from "@/tests/support/event-stream";
import { createTestAccount } from "@/tests/support/fixtures";
import { systemContext } from "@/lib/server/context";

// `: connected` means live: an event committed right after it is always delivered.

describe("GET /v1/events/stream says when it is live", () => {
  it("delivers an event committed right after `: connected`, in 50 connect-then-emit cycles", async () => {
    const { account, adminToken } = await createTestAccount();
    for (let cycle = 0; cycle < 50; cycle++) {
      const stream = await openEventStream(adminToken);
      const event = await getDb().transaction((tx) => recordEvent({ ...systemContext(), db: tx }, { accountId: account.id, type: "conversation.created", data: { cycle } }));
      const delivered = await stream.until(() => stream.events.some((e) => e.id === event.id), 3000);
      stream.close();
      expect(delivered, `cycle ${cycle}`).toBe(true);
      expect(stream.events.filter((e) => e.id === event.id)).toHaveLength(1);
    }
  });
});
