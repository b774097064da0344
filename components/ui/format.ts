/*
 * Formats that read the same in every language. Dates, times and weekday names use the reader's
 * formats instead: `useAppFormat()` in a client component, `getAppFormat()` on the server
 * (components/i18n).
 */

/** "12.4 KB", "3.1 MB": file sizes in the units people read (1 KB = 1,024 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1).replace(/\.0$/, "")} ${units[unit]}`;
}

