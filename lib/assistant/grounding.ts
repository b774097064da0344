/**
 * The facts of a generated answer that must be found in the passages it cites: numbers (prices,
 * quantities, times, phone and order numbers), dates (numbers and month names) and links
 * (URLs, domains, e-mail addresses). An answer stating one the business never wrote is discarded.
 */

const linkPattern = /\b(?:https?:\/\/|www\.)[^\s<>"'()]+|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b(?:[a-z0-9-]+\.)+(?:com|net|org|info|biz|shop|store|online|site|app|io|co|br|es|pt|ar|mx|cl|uy|pe|us|uk|eu)(?:\/[^\s<>"'()]*)?/giu;
const numberPattern = /\d+(?:[.,:/-]\d+)*/gu;
const months = [
  "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
  "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "setiembre", "octubre", "noviembre", "diciembre",
  "janeiro", "fevereiro", "março", "maio", "junho", "julho", "setembro", "outubro", "novembro", "dezembro",
];
const monthPattern = new RegExp(`(?<![\\p{L}])(?:${months.join("|")})(?![\\p{L}])`, "giu");

function normalizeLink(link: string): string {
  return link
    .toLowerCase()
    .replace(/[.,;:!?]+$/u, "")
    .replace(/^https?:\/\//u, "")
    .replace(/^www\./u, "")
    .replace(/\/+$/u, "");
}

/** "9,90", "9.90" and "R$9,90" are the same digits; "50.000" and "50000" too. */
const digitsOf = (number: string) => number.replace(/\D/gu, "");

function factsOf(text: string) {
  const links = [...text.matchAll(linkPattern)].map((match) => match[0]);
  const withoutLinks = text.replace(linkPattern, " ");
  return {
    links: links.map((link) => ({ shown: link, key: normalizeLink(link) })),
    numbers: [...withoutLinks.matchAll(numberPattern)].map((match) => ({ shown: match[0], key: digitsOf(match[0]) })),
    months: [...withoutLinks.matchAll(monthPattern)].map((match) => ({ shown: match[0], key: match[0].toLowerCase() })),
  };
}

/** The facts of `answer` (as written) that none of `passages` contains; empty when all are grounded. */
export function ungroundedFacts(answer: string, passages: string[]): string[] {
  const source = passages.join("\n");
  const known = factsOf(source);
  const flatSource = source.toLowerCase();
  const numbers = new Set(known.numbers.map((fact) => fact.key));
  const monthNames = new Set(known.months.map((fact) => fact.key));
  const found = factsOf(answer);
  return [
    ...found.links.filter((fact) => !known.links.some((link) => link.key === fact.key) && !flatSource.includes(fact.key)),
    ...found.numbers.filter((fact) => !numbers.has(fact.key)),
    ...found.months.filter((fact) => !monthNames.has(fact.key)),
  ].map((fact) => fact.shown);
}
