/** "2026-11-22 10:15:30 UTC": the same text on the server and in the browser (no hydration mismatch). */
export function formatUtc(iso: string | null, { seconds = true } = {}): string {
  if (!iso) return "never";
  const text = new Date(iso).toISOString().replace("T", " ");
  return `${seconds ? text.slice(0, 19) : text.slice(0, 16)} UTC`;
}
