import { type Hours, isOpenAt, nextOpeningAt } from "@/lib/profile/hours";

const MINUTE = 60_000;
/** A business clock looks at most this far ahead (a policy longer than that runs on the wall clock). */
const HORIZON_MS = 400 * 24 * 3_600_000;

/**
 * The instant `seconds` of clock time after `from`: wall-clock time, or with `hours` only the
 * time the business is open (the clock pauses while it is closed). Opening hours are in whole
 * minutes, so the open time is walked minute by minute and each closed stretch is jumped over.
 * Hours that never open (or an empty week) fall back to the wall clock.
 */
export function addClockSeconds({ from, seconds, hours }: { from: Date; seconds: number; hours: Hours | null }): Date {
  const wall = new Date(from.getTime() + seconds * 1000);
  if (!hours) return wall;
  let left = seconds * 1000;
  let at = from.getTime();
  const limit = at + HORIZON_MS;
  while (left > 0) {
    if (at > limit) return wall;
    if (!isOpenAt({ hours, at: new Date(at) })) {
      const opens = nextOpeningAt({ hours, at: new Date(at) });
      if (!opens) return wall;
      at = opens.getTime();
      continue;
    }
    // Open now: count to the next minute boundary (where the hours may close), or what is left.
    const step = Math.min(left, MINUTE - (at % MINUTE));
    at += step;
    left -= step;
  }
  return new Date(at);
}
