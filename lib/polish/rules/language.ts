import { englishMarkers } from "./en";
import { spanishMarkers } from "./es";
import { portugueseMarkers } from "./pt";

export type PolishLanguage = "en" | "es" | "pt";

/** The draft's language by its marker words and letters (`given` wins when the caller knows it). */
export function detectPolishLanguage(guardedText: string, given?: PolishLanguage): PolishLanguage {
  if (given) return given;
  const portuguese = (guardedText.toLowerCase().match(/[\p{L}\p{N}'’]+/gu) ?? []).filter((word) => portugueseMarkers.has(word)).length + (/[ãõç]|ê|ô/i.test(guardedText) ? 2 : 0);
  const words = guardedText.toLowerCase().match(/[\p{L}\p{N}'’]+/gu) ?? [];
  let spanish = 0;
  let english = 0;
  for (const word of words) {
    const plain = word.replace(/’/g, "'");
    if (spanishMarkers.has(plain)) spanish += 1;
    if (englishMarkers.has(plain)) english += 1;
  }
  if (/[ñ¿¡]/i.test(guardedText)) spanish += 2;
  if (/[áéíóú]/i.test(guardedText)) spanish += 1;
  if (portuguese > spanish && portuguese > english) return "pt";
  return spanish > english ? "es" : "en";
}
