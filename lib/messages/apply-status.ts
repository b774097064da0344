import type { SystemContext } from "@/lib/auth/context";
import type { Message, MessagePricing } from "@/db/schema";
import { callingCodeOf } from "@/lib/pricing/country";
import { recordEvent } from "@/lib/events/record-event";
import { sandboxStatusJob, sandboxStatusReport } from "@/lib/network/sandbox";
import { presentMessage } from "./schemas";
import { findMessage, findMessageForSandbox, findOutboundForStatus, updateMessage } from "./store";
import type { z } from "zod";
import { defineJob, type PayloadOf } from "@/lib/jobs/define";

export type NetworkStatus = "sent" | "delivered" | "read" | "failed";

const rank: Partial<Record<Message["status"], number>> = { queued: 0, sent: 1, delivered: 2, read: 3 };

/**
 * Whether an outbound message may move from `current` to `next`. Statuses only go forward
 * (queued → sent → delivered → read, skipping allowed), and `failed` only before delivery:
 * callbacks arrive late, twice or out of order, and must never move a message back.
 */
export function isForwardStatus(current: Message["status"], next: NetworkStatus): boolean {
  if (next === "failed") return current === "queued" || current === "sent";
  const from = rank[current];
  return from !== undefined && rank[next]! > from;
}

/**
 * Applies a status to an outbound message (by our id or the network's) and emits its
 * message.* event. Returns the updated message, or null when the message is unknown or the
 * status would not move it forward.
 */
export async function applyMessageStatus(
  ctx: SystemContext,
  {
    accountId,
    messageId,
    networkMessageId,
    status,
    error,
    pricing,
  }: {
    accountId: string;
    messageId?: string;
    networkMessageId?: string;
    status: NetworkStatus;
    error?: { code: string; message: string };
    pricing?: { category: string; billable: boolean; pricing_model?: string };
  },
) {
  const tx = ctx.db;
  const target = await findOutboundForStatus(tx, { accountId, messageId, networkMessageId });
  if (!target) return null;
  if (pricing) {
    // Kept from whichever status carries it, even one too late to move the message forward.
    const countryCode = callingCodeOf(target.toNumber);
    const stored: MessagePricing = { ...pricing, ...(countryCode ? { country_code: countryCode } : {}) };
    if (JSON.stringify(stored) !== JSON.stringify(target.pricing)) {
      await updateMessage(tx, { id: target.id, set: { pricing: stored } });
    }
  }
  const message = await findMessage(tx, { accountId, id: target.id, lock: true });
  if (!isForwardStatus(message.status, status)) return null;
  const now = new Date();
  const row = await updateMessage(tx, {
    id: message.id,
    set: { status, updatedAt: now, ...(status === "failed" ? { error: error ?? { code: "unknown", message: "The network reported the message as failed." } } : {}) },
  });
  const output = presentMessage({ ...row, media: message.media });
  await recordEvent(ctx, { accountId, type: `message.${status}`, data: { message: output } });
  return output;
}

/**
 * Applies one status report of the sandbox network (job `message.simulate-status`); what it
 * reports and when is the sandbox adapter's (`lib/network/sandbox.ts`).
 */
async function simulateSandboxStatus(ctx: SystemContext, { messageId, status }: z.output<typeof sandboxStatusJob>) {
  const row = await findMessageForSandbox(ctx.db, { id: messageId });
  if (!row) return;
  const report = sandboxStatusReport({ type: row.type, content: row.content, status });
  await ctx.db.transaction((tx) => applyMessageStatus({ ...ctx, db: tx }, { accountId: row.accountId, messageId, ...report }));
}

/** The sandbox's `message.simulate-status` job: the status a real network would report, when it would. */
export const simulateStatusJob = defineJob({ kind: "message.simulate-status", schema: sandboxStatusJob, handler: (payload, job) => simulateSandboxStatus(job.system, payload) });

declare module "@/lib/jobs/define" {
  interface JobPayloads {
    "message.simulate-status": PayloadOf<typeof simulateStatusJob>;
  }
}
