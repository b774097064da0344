/**
 * The facts of a generated answer that must be found in the passages it cites: numbers (prices,
 * quantities, times, phone and order numbers), dates (numbers and month names) and links
 * (URLs, domains, e-mail addresses). An answer stating one the business never wrote is discarded.
 */

const linkPattern = /\b(?:https?:\/\/|www\.)[^\s<>"'()]+|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b(?:[a-z0-9-]+\.)+(?:com|net|org|info|biz|shop|store|online|site|app|io|co|br|es|pt|ar|mx|cl|uy|pe|us|uk|eu)(?:\/[^\s<>"'()]*)?/giu;
const numberPattern = /\d+(?:[.,:/-]\d+)*/gu;
const months = [
  "january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december",
  "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "setiembre", "octubre", "noviembre", "diciembre",
  "janeiro", "fevereiro", "março", "maio", "junho", "julho", "setembro", "outubro", "novembro", "dezembro",
];
// "may" is a month only next to a day's number ("5 May", "May 5"): otherwise it is the verb.
const monthPattern = new RegExp(`(?<![\\p{L}])(?:${months.join("|")})(?![\\p{L}])|\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?may(?![\\p{L}])|(?<![\\p{L}])may\\s+\\d{1,2}(?!\\d)`, "giu");

/** The month's name of a match ("5 May" and "May 5" are both "may"). */
const monthKey = (match: string) => {
  const lower = match.toLowerCase();
  return /^\p{L}+/u.exec(lower)?.[0] ?? /\p{L}+$/u.exec(lower)?.[0] ?? lower;
};

function normalizeLink(link: string): string {
  return link
    .toLowerCase()
    .replace(/[.,;:!?]+$/u, "")
    .replace(/^https?:\/\//u, "")
    .replace(/^www\./u, "")
    .replace(/\/+$/u, "");
}

/**
 * A number's value as written in any of the three languages: the last `.` or `,` followed by one
 * or two digits is the decimal mark, any other separator groups thousands, and a zero decimal
 * part is dropped. "9,90", "9.90" and "R$9,90" are the same; "50.000" and "50000" too; "50,00" is
 * 50, never 5.000, and "1,5" is never 15. Times and dates ("9:30", "1/12") keep their shape.
 */
function numberKey(number: string): string {
  if (/[:/-]/u.test(number)) return number;
  const decimal = /[.,](\d{1,2})$/u.exec(number);
  const whole = (decimal ? number.slice(0, decimal.index) : number).replace(/\D/gu, "").replace(/^0+(?=\d)/u, "");
  const fraction = decimal ? decimal[1].replace(/0+$/u, "") : "";
  return fraction ? `${whole}.${fraction}` : whole;
}

function factsOf(text: string) {
  const links = [...text.matchAll(linkPattern)].map((match) => match[0]);
  const withoutLinks = text.replace(linkPattern, " ");
  return {
    links: links.map((link) => ({ shown: link, key: normalizeLink(link) })),
    numbers: [...withoutLinks.matchAll(numberPattern)].map((match) => ({ shown: match[0], key: numberKey(match[0]) })),
    months: [...withoutLinks.matchAll(monthPattern)].map((match) => ({ shown: match[0], key: monthKey(match[0]) })),
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
