/**
 * A small, valid PDF 1.4 written by hand: one page per string (its lines as lines of the page), each drawn with Helvetica, so
 * text extraction has something real to read. `padTo` appends a comment block to reach a size.
 */
export function makePdf(pages: string[], options: { padTo?: number } = {}): Buffer {
  const objects: string[] = [];
  const pageIds = pages.map((_, index) => 4 + index * 2);
  objects[1] = "<< /Type /Catalog /Pages 2 0 R >>";
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`;
  objects[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";
  pages.forEach((text, index) => {
    // Each line of the string is a line of the page ("\n" moves down one line).
    const lines = text.split("\n").map((line) => `(${line.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj`);
    const stream = `BT /F1 12 Tf 14 TL 72 720 Td ${lines.join(" T* ")} ET`;
    objects[4 + index * 2] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + index * 2} 0 R >>`;
    objects[5 + index * 2] = `<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}\nendstream`;
  });
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(out, "latin1");
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  const pdf = Buffer.from(out, "latin1");
  if (!options.padTo || options.padTo <= pdf.length) return pdf;
  // Comment lines after %%EOF are ignored by readers; they only make the file bigger.
  const filler = Buffer.alloc(options.padTo - pdf.length, "%".padEnd(80, "x") + "\n");
  return Buffer.concat([pdf, filler]);
}
