import { z } from "zod";
import type { Executor } from "@/db";
import type { SystemContext } from "@/lib/auth/context";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { adapterFor, loadNumberIntegration } from "@/lib/network/integration";
import { loadInboxSettings } from "./inbox-settings";
import { claimTypingIndicatorSlot, findConversationContactBlocked, findNewestCustomerNetworkId } from "./store";
import { defineJob, type PayloadOf } from "@/lib/jobs/define";

/** The typing indicator goes to a customer at most this often per conversation. */
const TYPING_INDICATOR_INTERVAL_MS = 20_000;
/** Attempts of one read receipt or typing indicator before it is dropped (it is only a courtesy). */
const MAX_SIGNAL_ATTEMPTS = 3;
const SIGNAL_RETRY_DELAYS_MS = [5_000, 30_000];

/** Whether the contact is blocked; an unknown conversation counts as blocked (nothing is sent). */
const contactBlocked = async (tx: Executor, { accountId, conversationId }: { accountId: string; conversationId: string }) =>
  (await findConversationContactBlocked(tx, { accountId, conversationId })) ?? true;

/**
 * An agent opened a conversation with unread customer messages: unless the account turned read
 * receipts off or the contact is blocked, the newest customer message is marked read at the
 * network (job `network.read-signal`, so the request never waits for the network).
 */
export async function queueReadReceipt(tx: Executor, { accountId, conversationId }: { accountId: string; conversationId: string }) {
  const settings = await loadInboxSettings(tx, accountId);
  if (!settings.send_read_receipts) return false;
  if (await contactBlocked(tx, { accountId, conversationId })) return false;
  const networkMessageId = await findNewestCustomerNetworkId(tx, { accountId, conversationId });
  if (!networkMessageId) return false;
  await enqueueJob(tx, { kind: "network.read-signal", accountId, payload: { accountId, networkMessageId, typing: false } });
  return true;
}

/**
 * An agent is typing in the conversation: unless the account turned the typing indicator off or
 * the contact is blocked, the customer sees "typing…" (sent with a read receipt of their newest
 * message, as the network requires), at most once per TYPING_INDICATOR_INTERVAL_MS per
 * conversation, whoever types.
 */
export async function queueTypingIndicator(tx: Executor, { accountId, conversationId, now = new Date() }: { accountId: string; conversationId: string; now?: Date }) {
  const settings = await loadInboxSettings(tx, accountId);
  if (!settings.send_typing_indicator) return false;
  if (await contactBlocked(tx, { accountId, conversationId })) return false;
  const networkMessageId = await findNewestCustomerNetworkId(tx, { accountId, conversationId });
  if (!networkMessageId) return false;
  const since = new Date(now.getTime() - TYPING_INDICATOR_INTERVAL_MS);
  // One writer wins the slot: the conditional update is the throttle, across processes too.
  const claimed = await claimTypingIndicatorSlot(tx, { accountId, id: conversationId, at: now, since });
  if (!claimed) return false;
  await enqueueJob(tx, { kind: "network.read-signal", accountId, payload: { accountId, networkMessageId, typing: true } });
  return true;
}

const signalJob = z.object({ accountId: z.string(), networkMessageId: z.string().min(1), typing: z.boolean() });

/**
 * Sends a read receipt (with the typing indicator when asked) through the account's number (job
 * `network.read-signal`). A temporary failure retries a little; anything else is dropped, as a
 * late "typing…" would mislead the customer more than a missing one.
 */
async function sendReadSignal(ctx: SystemContext, { accountId, networkMessageId, typing }: z.output<typeof signalJob>, { attempt = 1 }: { attempt?: number } = {}) {
  const integration = await loadNumberIntegration(ctx.db, accountId);
  const found = adapterFor(integration);
  if (!found.ok) return { failed: found.message };
  const result = await found.adapter.markRead({ networkMessageId, typing });
  if (result.ok) return;
  if (result.retryable && attempt < MAX_SIGNAL_ATTEMPTS) {
    return { retryAt: new Date(Date.now() + SIGNAL_RETRY_DELAYS_MS[attempt - 1]), error: `${result.code}: ${result.message}` };
  }
  return { failed: `${result.code}: ${result.message}` };
}

export const readSignalJob = defineJob({ kind: "network.read-signal", schema: signalJob, handler: (payload, job) => sendReadSignal(job.system, payload, job) });

declare module "@/lib/jobs/define" {
  interface JobPayloads {
    "network.read-signal": PayloadOf<typeof readSignalJob>;
  }
}
