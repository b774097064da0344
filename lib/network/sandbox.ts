import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Executor } from "@/db";
import { enqueueJob } from "@/lib/jobs/enqueue";
import type { NetworkAdapter, StatusUpdate } from "./types";

// The sandbox network: no external service. Every send is accepted at once, and the simulated
// customer's phone then reports the message delivered and read, as the real network's status
// callbacks would.

/** The statuses the simulated phone reports for an accepted message, and how long after the send. */
const SANDBOX_STATUS_REPORTS = [
  { status: "delivered", afterMs: 2_000 },
  { status: "read", afterMs: 6_000 },
] as const;

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

/** One simulated status report waiting to be applied (the payload of job `message.simulate-status`). */
export const sandboxStatusJob = z.object({ messageId: z.string().min(1), status: z.enum(["delivered", "read"]) });

/**
 * Schedules the status callbacks a real network would send for an accepted message:
 * delivered about 2 s after the send, read about 4 s after that.
 */
export async function scheduleSandboxStatuses(tx: Executor, { accountId, messageId, sentAt }: { accountId: string; messageId: string; sentAt: Date }) {
  for (const { status, afterMs } of SANDBOX_STATUS_REPORTS) {
    const payload: z.infer<typeof sandboxStatusJob> = { messageId, status };
    await enqueueJob(tx, { kind: "message.simulate-status", accountId, payload, runAt: new Date(sentAt.getTime() + afterMs) });
  }
}

/**
 * What the sandbox network reports for one of its messages: the status, priced as the network
 * prices per message (a template by its category, any reply inside the customer-service window
 * free).
 */
export function sandboxStatusReport({
  type,
  content,
  status,
}: {
  type: string;
  content: unknown;
  status: z.infer<typeof sandboxStatusJob>["status"];
}): Pick<StatusUpdate, "status"> & { pricing: NonNullable<StatusUpdate["pricing"]> } {
  const category = (content as { template?: { category?: string } } | null)?.template?.category;
  const pricing = type === "template" ? { category: (category ?? "MARKETING").toLowerCase(), billable: true, pricing_model: "PMP" } : { category: "service", billable: false, pricing_model: "PMP" };
  return { status, pricing };
}
