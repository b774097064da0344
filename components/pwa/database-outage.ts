"use client";

// Whether the server has just said it cannot reach its database (a `service_unavailable` answer
// to a form or a request), and the check that ends it: /readyz asked every few seconds, the
// interval the server gives in Retry-After, until it answers 200. The page stays as it is
// meanwhile, so whatever the user entered is kept.

/** Seconds between two checks: the server's Retry-After while its database is unreachable. */
const RETRY_MS = 5_000;

let unavailable = false;
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function set(value: boolean) {
  if (unavailable === value) return;
  unavailable = value;
  for (const listener of listeners) listener();
}

async function check() {
  timer = undefined;
  try {
    const res = await fetch("/readyz", { cache: "no-store" });
    if (res.ok) return set(false);
  } catch {
    // No answer at all: still unavailable from here (the offline banner covers a lost network).
  }
  timer = setTimeout(() => void check(), RETRY_MS);
}

/** Told by any failed request whose error is `service_unavailable`. */
export function reportDatabaseUnavailable() {
  set(true);
  timer ??= setTimeout(() => void check(), RETRY_MS);
}

export function subscribeDatabaseOutage(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export const databaseUnavailableNow = () => unavailable;
