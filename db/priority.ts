import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Bulk work (a campaign's sending) yields to everything else on the embedded database: its
 * statements, and the BEGIN of its transactions, wait until no other statement is waiting, so
 * an agent's send or an inbound webhook never queues behind a batch of them. A statement of
 * such work that is already running (or a transaction already begun) is not interrupted: bulk
 * work keeps its transactions short. On PostgreSQL (a pool of connections) nothing changes.
 */
const yielding = new AsyncLocalStorage<boolean>();

/** Runs `work` with every database statement it issues (however deep) yielding to others. */
export function yieldingToOthers<T>(work: () => Promise<T>): Promise<T> {
  return yielding.run(true, work);
}

/**
 * Runs `work` without yielding, inside work that yields: for its few statements that must not
 * wait (recording what the network already answered, so that a crash cannot lose it).
 */
export function notYielding<T>(work: () => Promise<T>): Promise<T> {
  return yielding.run(false, work);
}

/** Whether the current work yields (read when a statement is sent). */
export function isYielding(): boolean {
  return yielding.getStore() === true;
}
