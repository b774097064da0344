import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { messages } from "@/db/schema";
import { startBackgroundWork, stopBackgroundWork } from "@/lib/server/background";
import { createTestAccount } from "@/tests/support/fixtures";
import { seedConversation, seedMessage } from "@/tests/support/seed";

// A restart after a crash finds a backlog of due jobs. Worked through while the app is still
// loading, its transactions queue in front of the first requests on the embedded database's one
// connection (the health check waited seconds behind them). The runner's first pass waits until
// the HTTP server has sent the app's first answer (scripts/server.mjs sets the promise), and
// starts then, not at the latest moment.

const holder = globalThis as unknown as { __chorusFirstAnswer?: Promise<void> };

afterAll(async () => {
  await stopBackgroundWork();
  delete holder.__chorusFirstAnswer;
});

describe("a server restarted on a backlog", () => {
  it("starts on the backlog once it has answered its first request", async () => {
    const { account } = await createTestAccount();
    const { conversation, contact } = await seedConversation({ accountId: account.id });
    const message = await seedMessage({ accountId: account.id, conversationId: conversation.id, phone: contact.phone, direction: "outbound", status: "sent" });
    await getDb().execute(sql`
      insert into jobs (account_id, kind, payload, status, run_at, attempts, created_at, updated_at)
      values (${account.id}, 'message.simulate-status', ${JSON.stringify({ messageId: message.id, status: "delivered" })}::jsonb, 'pending',
              now() - interval '1 minute', 0, now(), now())`);
    let answered!: () => void;
    holder.__chorusFirstAnswer = new Promise<void>((resolve) => (answered = resolve));
    // At the latest ten minutes from now: only the first answer can start it in this test.
    await startBackgroundWork({ firstPassAfterMs: 10 * 60_000 });
    const status = async () => (await getDb().select({ status: messages.status }).from(messages).where(eq(messages.id, message.id)))[0]?.status;

    await new Promise((r) => setTimeout(r, 1_500));
    expect(await status()).toBe("sent");

    answered();
    await expect.poll(status, { timeout: 15_000, interval: 100 }).toBe("delivered");
  });
});
