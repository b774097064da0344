/**
 * Reads CSV text (RFC 4180: comma-separated, a cell may be quoted, `""` is a quote inside
 * quotes, quoted cells may hold line breaks; CRLF or LF line ends; a leading BOM is ignored).
 * Returns each record's cells with the line number it starts on; blank lines are skipped.
 */
export function parseCsv(text: string): { line: number; cells: string[] }[] {
  const input = text.replace(/^\uFEFF/, "");
  const records: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  let touched = false;
  const endRecord = () => {
    cells.push(cell);
    if (touched || cells.length > 1 || cells[0] !== "") records.push({ line: start, cells });
    cells = [];
    cell = "";
    touched = false;
  };
  for (let i = 0; i < input.length; i++) {
    const char = input[i];
    if (quoted) {
      if (char === '"' && input[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else {
        if (char === "\n") line++;
        cell += char;
      }
      continue;
    }
    if (char === '"' && cell.trim() === "") {
      quoted = true;
      cell = "";
      touched = true;
    } else if (char === ",") {
      cells.push(cell);
      cell = "";
      touched = true;
    } else if (char === "\r" || char === "\n") {
      if (char === "\r" && input[i + 1] === "\n") i++;
      endRecord();
      line++;
      start = line;
    } else cell += char;
  }
  if (cell !== "" || cells.length || touched) endRecord();
  return records;
}
