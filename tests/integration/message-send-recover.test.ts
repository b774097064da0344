import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as numberRoute from "@/app/v1/config/number/route";
import * as messageRoute from "@/app/v1/messages/[id]/route";
import * as messagesRoute from "@/app/v1/messages/route";
import { getDb } from "@/db";
import { jobs, messageSendAttempts } from "@/db/schema";
import { drainJobs } from "@/lib/jobs/runner";
import { JOB_LEASE_MS, JOBS_SOURCE } from "@/lib/jobs/source";
import { sourceNamed } from "@/lib/jobs/sources";
import { handOverQueuedMessage } from "@/lib/messages/send-queued-message";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { systemContext } from "@/lib/server/context";
import { jobRegistry } from "@/lib/server/job-registry";
import { call } from "@/tests/support/api";
import { setEnv } from "@/tests/support/env-vars";
import { type FakeCloudNetwork, startFakeCloudNetwork } from "@/tests/support/fake-cloud-network";
import { createTestAccount } from "@/tests/support/fixtures";
import { eventsOf, nextPhone } from "@/tests/support/messaging";

const ACCESS_TOKEN = "EAAG-recover-network-token-123456";
let seq = 0;
let network: FakeCloudNetwork;
let account: Awaited<ReturnType<typeof createTestAccount>>;
let restoreEnv: () => void;

// The fake network listens on loopback, which the URL policy allows only with this switch.
beforeAll(() => {
  restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true" });
});
afterAll(() => restoreEnv());

beforeEach(async () => {
  resetRateLimiters();
  const phoneNumberId = `30654035224${String(++seq).padStart(4, "0")}`;
  network = await startFakeCloudNetwork({ accessToken: ACCESS_TOKEN, phoneNumberId });
  account = await createTestAccount();
  const res = await call(numberRoute.PUT, {
    method: "PUT",
    path: "/v1/config/number",
    token: account.adminToken,
    body: {
      provider: "cloud",
      phone_number: "+14155552671",
      phone_number_id: phoneNumberId,
      business_account_id: "102290129340398",
      access_token: ACCESS_TOKEN,
      app_secret: "recover-app-secret-0123456789",
      verify_token: `recover-verify-${seq}`,
      api_base_url: network.apiBaseUrl,
    },
  });
  expect(res.status).toBe(200);
});

afterEach(async () => {
  await network.close();
});

const send = (body: unknown) => call(messagesRoute.POST, { method: "POST", path: "/v1/messages", token: account.adminToken, body });
const getMessage = async (id: string) => (await call(messageRoute.GET, { path: "/", token: account.adminToken, params: { id } })).body;
const afterTheLease = () => new Date(Date.now() + JOB_LEASE_MS + 60_000);
const sendsTo = (to: string) => network.acceptedMessages.filter((m) => m.to === to);

describe("a send whose process died after the network took the message, before its answer was recorded", () => {
  it("is never handed to the network a second time: the runner's recovery fails it as interrupted, for the agent to resend", async () => {
    const to = nextPhone();
    const res = await send({ to, type: "text", text: "Your order ships today" });
    expect(res.status).toBe(201);

    // A worker claims the job and hands the message to the network; the process dies before
    // the answer is recorded (nothing after the network call runs).
    const claimed = await sourceNamed(JOBS_SOURCE).claim(getDb(), { limit: 10, now: new Date() });
    expect(claimed.map((job) => job.kind)).toContain("message.send");
    const handed = await handOverQueuedMessage(systemContext(), { messageId: res.body.id });
    expect("sent" in handed).toBe(true);
    expect(sendsTo(to)).toHaveLength(1);
    expect((await getMessage(res.body.id)).status).toBe("queued");

    // The dead worker's lease runs out; a runner claims the job again.
    await drainJobs(systemContext(), jobRegistry, { now: afterTheLease() });

    expect(sendsTo(to)).toHaveLength(1);
    const message = await getMessage(res.body.id);
    expect(message.status).toBe("failed");
    expect(message.error).toEqual({ code: "interrupted", message: expect.stringMatching(/may have arrived/) });
    const [failed] = await eventsOf(account.account.id, "message.failed");
    expect(failed.data).toEqual({ message: expect.objectContaining({ id: res.body.id, status: "failed" }) });
    // Settled: the job is finished, and a later pass sends nothing.
    await drainJobs(systemContext(), jobRegistry, { now: new Date(afterTheLease().getTime() + JOB_LEASE_MS) });
    expect(sendsTo(to)).toHaveLength(1);
    const pending = await getDb().select().from(jobs).where(and(eq(jobs.accountId, account.account.id), eq(jobs.status, "pending")));
    expect(pending).toHaveLength(0);
  });

  it("still retries a send the network refused with a temporary error, and sends it once", async () => {
    network.failNext({ status: 503, body: { error: { message: "Service temporarily unavailable", type: "OAuthException", code: 2 } } });
    const to = nextPhone();
    const res = await send({ to, type: "text", text: "Back in stock" });
    await drainJobs(systemContext(), jobRegistry);
    expect((await getMessage(res.body.id)).status).toBe("queued");
    await drainJobs(systemContext(), jobRegistry, { now: new Date(Date.now() + 10 * 60_000) });
    const message = await getMessage(res.body.id);
    expect(message.status).toBe("sent");
    expect(sendsTo(to)).toHaveLength(1);
    // Nothing is left marking a send in progress.
    expect(await getDb().select().from(messageSendAttempts).where(eq(messageSendAttempts.messageId, res.body.id))).toHaveLength(0);
  });

  it("leaves no record of a send in progress once the answer is recorded", async () => {
    const res = await send({ to: nextPhone(), type: "text", text: "Thanks!" });
    await drainJobs(systemContext(), jobRegistry);
    expect((await getMessage(res.body.id)).status).toBe("sent");
    expect(await getDb().select().from(messageSendAttempts).where(eq(messageSendAttempts.messageId, res.body.id))).toHaveLength(0);
  });
});
