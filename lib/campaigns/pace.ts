/**
 * A campaign's pacing clock, pure arithmetic on times in milliseconds.
 *
 * Send n is due `n / perSecond` seconds after the pace's origin, however long the bookkeeping
 * between sends takes (reading the next recipients, recording the network's answers): that time
 * is not added to the schedule, so the sustained rate is `perSecond`. A pacer that has fallen
 * behind by more than `maxLagMs` (a stall: the database busy, the process descheduled, the job
 * handed back to the runner and claimed again) moves its origin so that it is at most that far
 * behind: what was missed beyond it is not made up for. What it makes up for, it makes up at
 * most `CATCH_UP_SPEED` times the pace, never as a burst (a burst of sends is a burst of work
 * that an agent's send would wait behind).
 */
export type Pace = { perSecond: number; origin: number; taken: number; maxLagMs: number; last: number };

/** How far behind its schedule a pacer may be and still catch up: a second's share at most. */
export const MAX_LAG_MS = 1000;
/** How much faster than its pace a pacer that is behind may send. */
export const CATCH_UP_SPEED = 2;

export function startPace(perSecond: number, now: number, maxLagMs = MAX_LAG_MS): Pace {
  return { perSecond, origin: now, taken: 0, maxLagMs, last: -Infinity };
}

/** Takes the next send's slot: the time it is due (send at once when it is not in the future). */
export function takeSlot(pace: Pace, now: number): number {
  const spacing = 1000 / pace.perSecond;
  let at = pace.origin + pace.taken * spacing;
  const behind = now - at;
  if (behind > pace.maxLagMs) {
    pace.origin += behind - pace.maxLagMs;
    at = now - pace.maxLagMs;
  }
  at = Math.max(at, pace.last + spacing / CATCH_UP_SPEED);
  pace.taken++;
  // When the previous send went: at its slot, or now if that was already past.
  pace.last = Math.max(at, now);
  return at;
}

/** When the next send would be due, without taking its slot. */
export function nextSlotAt(pace: Pace): number {
  return pace.origin + (pace.taken * 1000) / pace.perSecond;
}

/**
 * A campaign resumes sending this long after its server's job runner first took it up at the
 * earliest: the first requests after a (re)start (code loaded on first use, the database
 * worker preparing its statements, the job runner's first pass) are answered before thousands
 * of campaign sends compete with them.
 */
export const WARM_UP_MS = 5000;

/** How long a pacer waits before its first send, `sinceFirstRunMs` after the first run of any pacer in this process. */
export function warmUpWaitMs(sinceFirstRunMs: number, warmUpMs = WARM_UP_MS): number {
  return Math.max(0, Math.ceil(warmUpMs - sinceFirstRunMs));
}
