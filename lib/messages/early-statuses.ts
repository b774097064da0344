import type { Executor } from "@/db";
import type { SystemContext } from "@/lib/auth/context";
import { applyMessageStatus, type NetworkStatus } from "./apply-status";
import { deleteEarlyStatuses, findEarlyStatuses, insertEarlyStatus } from "./store";

/**
 * A status for a network message id no message carries yet: the network can report `sent`
 * or even `delivered` before the send that got that id has been recorded. Kept until then.
 */
export async function keepEarlyStatus(
  tx: Executor,
  { accountId, networkMessageId, status, error }: { accountId: string; networkMessageId: string; status: NetworkStatus; error?: { code: string; message: string } },
) {
  await insertEarlyStatus(tx, { accountId, networkMessageId, status, error });
}

const order: Record<NetworkStatus, number> = { sent: 0, failed: 1, delivered: 2, read: 3 };

/**
 * Applies, in their natural order, the statuses that arrived for this network id before the
 * send recorded it, then forgets them (in the transaction that records the network's id).
 */
export async function applyEarlyStatuses(ctx: SystemContext, { accountId, messageId, networkMessageId }: { accountId: string; messageId: string; networkMessageId: string }) {
  const tx = ctx.db;
  const rows = await findEarlyStatuses(tx, { accountId, networkMessageId });
  if (rows.length === 0) return;
  for (const row of [...rows].sort((a, b) => order[a.status] - order[b.status])) {
    await applyMessageStatus(ctx, { accountId, messageId, status: row.status, error: row.error ?? undefined });
  }
  await deleteEarlyStatuses(tx, { ids: rows.map((row) => row.id) });
}
