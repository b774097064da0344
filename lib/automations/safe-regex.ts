import { RE2JS } from "re2js";

/** The longest pattern a `matches` condition accepts. */
export const MAX_PATTERN_LENGTH = 200;
/** The largest counted repetition (`{n,m}`) a pattern may ask for. */
export const MAX_REPEAT = 100;

/**
 * A `matches` pattern runs on the RE2 engine, which matches in time linear in the text and has
 * no backtracking, so no pattern can stall the transaction of the event it reacts to. RE2 has no
 * backreferences and no lookaround: such a pattern is refused at save time, as are patterns over
 * 200 characters and counted repetitions above 100. Matching ignores case.
 * Returns why the pattern is refused, or null when it is safe.
 */
export function unsafePatternReason(pattern: string): string | null {
  if (pattern.length === 0) return "must not be empty";
  if (pattern.length > MAX_PATTERN_LENGTH) return `must be at most ${MAX_PATTERN_LENGTH} characters`;
  for (const match of pattern.matchAll(/\{(\d+)(?:,(\d*))?\}/g)) {
    const largest = Math.max(Number(match[1]), match[2] ? Number(match[2]) : 0);
    if (largest > MAX_REPEAT) return `may repeat at most ${MAX_REPEAT} times ({n,m})`;
  }
  try {
    RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
    return null;
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, "") : "is not valid";
    return `is not a safe regular expression (no backreferences or lookaround): ${reason}`;
  }
}

const compiled = new Map<string, RE2JS>();

/** Whether `text` contains a match of the (already validated) pattern, case-insensitive. */
export function patternMatches(pattern: string, text: string): boolean {
  let re = compiled.get(pattern);
  if (!re) {
    // A small cache: rules are few, and compiling is most of the cost of a short text.
    if (compiled.size > 500) compiled.clear();
    re = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
    compiled.set(pattern, re);
  }
  return re.test(text);
}
