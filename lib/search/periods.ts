/**
 * The time periods a stored search row is tagged with (chorus_search_periods: `h` + UTC hour
 * `YYYYMMDDHH`, `d` + day, `m` + month, `y` + year), and the query over them that covers every
 * moment from `from` on: whole hours up to the next day, whole days up to the next month, whole
 * months up to the next year, then whole years up to the end of next year (a message is never
 * written later than that). At most about 70 terms, whatever `from` is.
 */
export function periodsFrom(from: Date, now: Date): { query: string; coveredFrom: Date } {
  const start = new Date(Math.floor(from.getTime() / 3_600_000) * 3_600_000);
  const end = Date.UTC(now.getUTCFullYear() + 2, 0, 1);
  const terms: string[] = [];
  const d = new Date(start);
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  while (d.getTime() < end) {
    const [y, m, day, h] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours()];
    if (h === 0 && day === 1 && m === 0) {
      terms.push(`y${pad(y, 4)}`);
      d.setUTCFullYear(y + 1);
    } else if (h === 0 && day === 1) {
      terms.push(`m${pad(y, 4)}${pad(m + 1)}`);
      d.setUTCMonth(m + 1);
    } else if (h === 0) {
      terms.push(`d${pad(y, 4)}${pad(m + 1)}${pad(day)}`);
      d.setUTCDate(day + 1);
    } else {
      terms.push(`h${pad(y, 4)}${pad(m + 1)}${pad(day)}${pad(h)}`);
      d.setUTCHours(h + 1);
    }
  }
  return { query: terms.join(" | "), coveredFrom: start };
}
