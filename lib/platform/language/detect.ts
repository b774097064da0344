import { detectAll } from "tinyld";
import { isLanguage, type Language, languages, scoreLanguageMarkers } from "./language";

/** How far ahead the best language must be for the answer not to be "unsure". */
const MARGIN = 0.35;

/**
 * English, Spanish or Portuguese for a customer's message, or null when the text gives no clear
 * sign ("ok", "👍", a number). A trigram model (tinyld) read only for these three languages, plus
 * common chat words, so short messages are told apart too ("obrigado", "gracias").
 */
export function detectMessageLanguage(text: string | null | undefined): Language | null {
  if (!text) return null;
  // Links and addresses say nothing about the language and confuse the trigram model.
  text = text.replace(/\b(?:https?:\/\/|www\.)\S+|\S+@\S+\.\S+/giu, " ");
  const letters = text.replace(/[^\p{L}]/gu, "");
  if (letters.length < 2) return null;
  const scores = scoreLanguageMarkers(text);
  const model = detectAll(text);
  const total = model.reduce((sum, result) => sum + result.accuracy, 0);
  for (const result of model) {
    // The model's share of its whole guess (other languages included, so a weak guess weighs
    // little), worth up to two marker words.
    if (total > 0 && isLanguage(result.lang)) scores[result.lang] += (2 * result.accuracy) / total;
  }
  const ranked = [...languages].sort((a, b) => scores[b] - scores[a]);
  const [best, second] = ranked;
  if (scores[best] <= 0) return null;
  if (scores[best] - scores[second] < MARGIN) return null;
  return best;
}

