import type { SystemContext } from "@/lib/auth/context";
import { announceSent } from "./send-queued-message";
import { endSendAttempt, markReachedNetwork } from "./store";

/**
 * Each message is sent with our id as its callback data, which the network hands back in every
 * status it reports for it. A status for a network id no message carries yet, naming one of the
 * account's outbound messages that has none, is the network saying it took that message: the
 * process stopped before the send's answer was recorded (or has not recorded it yet). The
 * network's id is recorded on the message as the send would have recorded it: a message still
 * `queued`, or failed `interrupted` (sent once, and its arrival was unknown until now), becomes
 * `sent`, with its message.sent event. Run in the transaction that applies the status. Returns
 * the message's id, or undefined when the callback data names no such message.
 */
export async function recordReachedNetwork(ctx: SystemContext, { accountId, messageId, networkMessageId }: { accountId: string; messageId: string; networkMessageId: string }) {
  const tx = ctx.db;
  const row = await markReachedNetwork(tx, { accountId, id: messageId, networkMessageId, at: new Date() });
  if (!row) return undefined;
  await endSendAttempt(tx, { accountId, messageId: row.id });
  await announceSent(ctx, row);
  return row.id;
}
