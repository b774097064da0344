/**
 * The one CSV writer of every export (RFC 4180, comma-separated, CRLF line ends).
 *
 * - A cell that holds a comma, a semicolon (the separator of spreadsheets set to many European
 *   locales), a double quote, a carriage return or a line feed is quoted, its quotes doubled.
 * - A cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`,
 *   whatever the column: a spreadsheet would otherwise run it as a formula, and exports carry
 *   what strangers wrote (names, notes, labels).
 * - null and undefined are empty cells; numbers and booleans are written as they print.
 */
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[,;"\r\n]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, with its CRLF. */
export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
