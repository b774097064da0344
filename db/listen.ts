import { getDbHandle } from "@/db";

/**
 * Subscribes to a NOTIFY channel on whichever database this process uses. Notifications
 * sent inside a transaction arrive only when it commits, from any server process.
 */
export async function listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
  const handle = getDbHandle();
  if (handle.pglite) {
    const unsubscribe = await handle.pglite.listen(channel, onPayload);
    return async () => unsubscribe();
  }
  if (handle.sql) {
    const subscription = await handle.sql.listen(channel, onPayload);
    return async () => subscription.unlisten();
  }
  return async () => {};
}
