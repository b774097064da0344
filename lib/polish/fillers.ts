import { englishFillers } from "./rules/en";
import { spanishFillers } from "./rules/es";
import { portugueseFillers } from "./rules/pt";

const fillerRules = [...englishFillers, ...spanishFillers, ...portugueseFillers].map(([source, replacement]) => ({
  pattern: new RegExp(`(,\\s*)?(?<![\\p{L}\\p{N}'’])(?:${source})(?![\\p{L}\\p{N}'’])(\\s*,)?`, "giu"),
  replacement,
}));

/** Drops filler phrases ("I just wanted to let you know that", "la verdad es que") from one sentence. */
export function removeFillers(sentence: string): string {
  let result = sentence;
  for (const { pattern, replacement } of fillerRules) {
    result = result.replace(pattern, (match: string, lead: string | undefined, trail: string | undefined, offset: number, whole: string) => {
      if (replacement) return (lead ?? "") + replacement + (trail ?? "");
      if (lead && trail) return " ";
      // ", just checking" keeps its comma; ", I think." at the end of a sentence loses it.
      if (lead) return /^\s*(?:[.!?…]|$)/.test(whole.slice(offset + match.length)) ? "" : lead;
      return "";
    });
  }
  return result.replace(/\s{2,}/g, " ").replace(/^[\s,;:]+/, "").replace(/\s+([,.;:!?…])/g, "$1").trim();
}
