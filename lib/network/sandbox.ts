import { randomBytes } from "node:crypto";
import type { Executor } from "@/db";
import { enqueueJob } from "@/lib/jobs/enqueue";
import type { NetworkAdapter } from "./types";

// How long after the send the simulated customer's phone reports delivered, then read.
const SANDBOX_DELIVERED_AFTER_MS = 2_000;
const SANDBOX_READ_AFTER_MS = 6_000;

/** The default provider: no external service; every send is accepted at once. */
export const sandboxAdapter: NetworkAdapter = {
  async send() {
    return { ok: true, networkMessageId: `sandbox.${randomBytes(16).toString("base64url")}` };
  },
  // The simulated customer has no phone to show a read receipt or typing on.
  async markRead() {
    return { ok: true };
  },
  async testConnection() {
    return { ok: true, message: "The sandbox is ready: sends are accepted and reach read status a few seconds later." };
  },
};

/**
 * Schedules the status callbacks a real network would send for an accepted message:
 * delivered about 2 s after the send, read about 4 s after that.
 */
export async function scheduleSandboxStatuses(tx: Executor, { accountId, messageId, sentAt }: { accountId: string; messageId: string; sentAt: Date }) {
  await enqueueJob(tx, {
    kind: "message.simulate-status",
    accountId,
    payload: { messageId, status: "delivered" },
    runAt: new Date(sentAt.getTime() + SANDBOX_DELIVERED_AFTER_MS),
  });
  await enqueueJob(tx, {
    kind: "message.simulate-status",
    accountId,
    payload: { messageId, status: "read" },
    runAt: new Date(sentAt.getTime() + SANDBOX_READ_AFTER_MS),
  });
}
