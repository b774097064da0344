import { RE2JS } from "re2js";

/** The longest pattern a `matches` condition accepts. */
const MAX_PATTERN_LENGTH = 200;
/** The largest counted repetition (`{n,m}`) a pattern may ask for. */
const MAX_REPEAT = 100;
/**
 * The largest compiled program a pattern may have (RE2's instruction count). Matching costs up
 * to program size × text length, so nested repeats such as `(\pL{1,30}){1,30}` (about 2,000
 * instructions, tens of milliseconds per long message) are refused when the rule is saved.
 */
const MAX_PROGRAM_SIZE = 500;

/**
 * A `matches` pattern runs on the RE2 engine, which matches in time linear in the text and has
 * no backtracking, so no pattern can stall the transaction of the event it reacts to. RE2 has no
 * backreferences and no lookaround: such a pattern is refused at save time, as are patterns over
 * 200 characters, counted repetitions above 100 and programs over 500 instructions. Matching
 * ignores case.
 * Returns why the pattern is refused, or null when it is safe.
 */
export function unsafePatternReason(pattern: string): string | null {
  if (pattern.length === 0) return "must not be empty";
  if (pattern.length > MAX_PATTERN_LENGTH) return `must be at most ${MAX_PATTERN_LENGTH} characters`;
  for (const match of pattern.matchAll(/\{(\d+)(?:,(\d*))?\}/g)) {
    const largest = Math.max(Number(match[1]), match[2] ? Number(match[2]) : 0);
    if (largest > MAX_REPEAT) return `may repeat at most ${MAX_REPEAT} times ({n,m})`;
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, "") : "is not valid";
    return `is not a safe regular expression (no backreferences or lookaround): ${reason}`;
  }
  const size = re.programSize();
  if (size > MAX_PROGRAM_SIZE) return `is too complex: it compiles to ${size} steps, at most ${MAX_PROGRAM_SIZE} (nest fewer repeats)`;
  return null;
}

const compiled = new Map<string, RE2JS>();

/** The compiled size (RE2 instructions) of an already validated pattern: its cost per character of text. */
export function patternProgramSize(pattern: string): number {
  return compiledPattern(pattern).programSize();
}

function compiledPattern(pattern: string): RE2JS {
  let re = compiled.get(pattern);
  if (!re) {
    // A small cache: rules are few, and compiling is most of the cost of a short text.
    if (compiled.size > 500) compiled.clear();
    re = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
    compiled.set(pattern, re);
  }
  return re;
}

/** Whether `text` contains a match of the (already validated) pattern, case-insensitive. */
export function patternMatches(pattern: string, text: string): boolean {
  return compiledPattern(pattern).test(text);
}
