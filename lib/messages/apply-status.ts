import { and, eq } from "drizzle-orm";
import type { SystemContext } from "@/lib/auth/context";
import { type Message, type MessagePricing, messages } from "@/db/schema";
import { callingCodeOf } from "@/lib/pricing/country";
import { recordEvent } from "@/lib/events/record-event";
import { presentMessage } from "./schemas";
import { findMessage } from "./store";

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
  const [target] = await tx
    .select({ id: messages.id, toNumber: messages.toNumber, pricing: messages.pricing })
    .from(messages)
    .where(
      and(
        eq(messages.accountId, accountId),
        eq(messages.direction, "outbound"),
        messageId ? eq(messages.id, messageId) : eq(messages.networkMessageId, networkMessageId ?? ""),
      ),
    )
    .limit(1);
  if (!target) return null;
  if (pricing) {
    // Kept from whichever status carries it, even one too late to move the message forward.
    const countryCode = callingCodeOf(target.toNumber);
    const stored: MessagePricing = { ...pricing, ...(countryCode ? { country_code: countryCode } : {}) };
    if (JSON.stringify(stored) !== JSON.stringify(target.pricing)) {
      await tx.update(messages).set({ pricing: stored }).where(eq(messages.id, target.id));
    }
  }
  const message = await findMessage(tx, { accountId, id: target.id, lock: true });
  if (!isForwardStatus(message.status, status)) return null;
  const now = new Date();
  const [row] = await tx
    .update(messages)
    .set({ status, updatedAt: now, ...(status === "failed" ? { error: error ?? { code: "unknown", message: "The network reported the message as failed." } } : {}) })
    .where(eq(messages.id, message.id))
    .returning();
  const output = presentMessage({ ...row, media: message.media });
  await recordEvent(ctx, { accountId, type: `message.${status}`, data: { message: output } });
  return output;
}

/** The sandbox's stand-in for the network's status callbacks (job `message.simulate-status`). */
export async function simulateSandboxStatus(ctx: SystemContext, payload: Record<string, unknown>) {
  const messageId = typeof payload.messageId === "string" ? payload.messageId : undefined;
  const status = payload.status === "delivered" || payload.status === "read" ? payload.status : undefined;
  if (!messageId || !status) return { failed: "message.simulate-status needs messageId and status (delivered or read)" };
  const [row] = await ctx.db.select({ accountId: messages.accountId, type: messages.type, content: messages.content }).from(messages).where(eq(messages.id, messageId)).limit(1);
  if (!row) return;
  // Priced as the network prices per message: a template by its category, any reply inside the window free.
  const category = (row.content as { template?: { category?: string } } | null)?.template?.category;
  const pricing = row.type === "template" ? { category: (category ?? "MARKETING").toLowerCase(), billable: true, pricing_model: "PMP" } : { category: "service", billable: false, pricing_model: "PMP" };
  await ctx.db.transaction((tx) => applyMessageStatus({ ...ctx, db: tx }, { accountId: row.accountId, messageId, status, pricing }));
}
