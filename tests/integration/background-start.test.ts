import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import * as messagesRoute from "@/app/v1/messages/route";
import { getDb } from "@/db";
import { messages } from "@/db/schema";
import { startBackgroundWork, stopBackgroundWork } from "@/lib/server/background";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";
import { nextPhone } from "@/tests/support/messaging";

afterAll(async () => {
  await stopBackgroundWork();
});

describe("a server just started", () => {
  it("sends a message an agent asks for in its first seconds at once, without waiting for the job runner's delayed first pass", async () => {
    resetRateLimiters();
    const { adminToken } = await createTestAccount();
    // The runner's delayed first pass is ten minutes away in this test: only the agent's
    // message can start it. (A faked clock would also stop the PostgreSQL driver's own timers.)
    await startBackgroundWork({ firstPassAfterMs: 10 * 60_000 });
    const res = await call(messagesRoute.POST, { method: "POST", path: "/v1/messages", token: adminToken, body: { to: nextPhone(), type: "text", text: "Your order is on its way." } });
    expect(res.status, res.text).toBe(201);
    const status = async () => (await getDb().select({ status: messages.status }).from(messages).where(eq(messages.id, res.body.id as string)))[0]?.status;
    await expect.poll(status, { timeout: 15_000, interval: 100 }).toBe("sent");
  });
});
