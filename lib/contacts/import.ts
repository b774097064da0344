import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";
import { auditChange } from "@/lib/audit/record-audit";
import type { ServiceContext } from "@/lib/auth/context";
import { parseCsv } from "@/lib/platform/csv-parse";
import { invalidField } from "@/lib/platform/errors";
import { type ImportContactsInput, type ImportContactsOutput, MAX_IMPORT_ROWS } from "./import-schemas";
import { MAX_ATTRIBUTES } from "./schemas";
import { findContactsConsentByPhone, type ImportedContact, upsertImportedContacts } from "./store";

const KNOWN = new Set(["phone", "name", "email", "marketing_opt_in"]);
const YES = new Set(["true", "yes", "y", "1", "si", "sí", "sim"]);
const NO = new Set(["false", "no", "n", "0", "nao", "não"]);
const MAX_ERRORS_LISTED = 1000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Row = ImportedContact & { line: number };

/**
 * Contacts from a CSV file: each row checked on its own (a bad row is reported with its line
 * and column and left out; the rest are imported). Numbers are normalised to E.164 digits
 * (`+34 612-34-56-78` and `612345678` with default country ES are the same contact); a number
 * already in the account updates that contact (name and email when given, attributes merged,
 * consent when given); a number twice in the file is an error on its second row.
 */
export async function importContacts({ ctx, input }: { ctx: ServiceContext; input: ImportContactsInput }): Promise<ImportContactsOutput> {
  const records = parseCsv(input.csv);
  if (!records.length) throw invalidField("csv", "is empty: the first line must name the columns (phone, name, …)");
  const header = records[0].cells.map((cell) => cell.trim().toLowerCase().replace(/\s+/g, "_"));
  if (!header.includes("phone")) throw invalidField("csv", "line 1 must name the columns, one of them phone");
  const repeated = header.find((name, index) => name && header.indexOf(name) !== index);
  if (repeated) throw invalidField("csv", `line 1 names the column ${repeated} twice`);
  const attributeColumns = header.filter((name) => name && !KNOWN.has(name));
  if (attributeColumns.length > MAX_ATTRIBUTES) throw invalidField("csv", `at most ${MAX_ATTRIBUTES} attribute columns`);
  const data = records.slice(1);
  if (data.length > MAX_IMPORT_ROWS) throw invalidField("csv", `has ${data.length.toLocaleString("en")} rows; at most ${MAX_IMPORT_ROWS.toLocaleString("en")} per import`);

  const errors: ImportContactsOutput["errors"] = [];
  const rows: Row[] = [];
  const seen = new Map<string, number>();
  const fail = (line: number, column: string | null, message: string) => errors.push({ line, column, message });
  for (const record of data) {
    const cell = (name: string) => (record.cells[header.indexOf(name)] ?? "").trim();
    if (record.cells.length > header.length) {
      fail(record.line, null, `has ${record.cells.length} cells; the header names ${header.length}`);
      continue;
    }
    const rawPhone = cell("phone");
    if (!rawPhone) {
      fail(record.line, "phone", "is empty");
      continue;
    }
    const parsed = parsePhoneNumberFromString(rawPhone, input.default_country as CountryCode | undefined);
    if (!parsed || !parsed.isValid()) {
      fail(record.line, "phone", `${rawPhone.slice(0, 40)} is not a valid phone number${input.default_country ? "" : " (write it with + and the country code, or give default_country)"}`);
      continue;
    }
    const phone = parsed.number.replace(/^\+/, "");
    if (seen.has(phone)) {
      fail(record.line, "phone", `repeats the number of line ${seen.get(phone)}`);
      continue;
    }
    const name = cell("name");
    if (name.length > 100) {
      fail(record.line, "name", "must be at most 100 characters");
      continue;
    }
    const email = cell("email").toLowerCase();
    if (email && (email.length > 254 || !EMAIL.test(email))) {
      fail(record.line, "email", "is not a valid email address");
      continue;
    }
    const consent = cell("marketing_opt_in").toLowerCase();
    let optIn: boolean | null | undefined = input.marketing_opt_in;
    if (consent) {
      if (YES.has(consent)) optIn = true;
      else if (NO.has(consent)) optIn = false;
      else {
        fail(record.line, "marketing_opt_in", "must be yes or no (true/false, 1/0), or empty");
        continue;
      }
    }
    const attributes: Record<string, string> = {};
    const tooLong = attributeColumns.find((column) => cell(column).length > 1000);
    if (tooLong) {
      fail(record.line, tooLong, "must be at most 1,000 characters");
      continue;
    }
    for (const column of attributeColumns) if (cell(column)) attributes[column.slice(0, 64)] = cell(column);
    seen.set(phone, record.line);
    rows.push({ line: record.line, phone, name: name || null, email: email || null, optIn, attributes });
  }

  const db = ctx.db;
  const existing = new Set<string>();
  // Contacts who opted out keep their opt-out whatever the file says (the preview shows so).
  const optedOut = new Set<string>();
  for (let i = 0; i < rows.length; i += 1000) {
    const slice = rows.slice(i, i + 1000).map((r) => r.phone);
    const found = await findContactsConsentByPhone(db, { accountId: ctx.accountId, phones: slice });
    for (const row of found) {
      if (row.phone) existing.add(row.phone);
      if (row.phone && row.optIn === false) optedOut.add(row.phone);
    }
  }
  const output: ImportContactsOutput = {
    preview: input.preview,
    rows: data.length,
    valid: rows.length,
    created: 0,
    updated: 0,
    errors: errors.slice(0, MAX_ERRORS_LISTED),
    sample: rows.slice(0, 20).map((r) => ({ line: r.line, phone: r.phone, name: r.name, marketing_opt_in: optedOut.has(r.phone) ? false : (r.optIn ?? null), attributes: r.attributes, exists: existing.has(r.phone) })),
  };
  if (input.preview || !rows.length) return output;

  await db.transaction(async (tx) => {
    const now = new Date();
    for (let i = 0; i < rows.length; i += 500) {
      await upsertImportedContacts(tx, { accountId: ctx.accountId, rows: rows.slice(i, i + 500), now });
    }
    await auditChange(ctx, "contacts.imported", { type: "account", id: ctx.accountId }, tx);
  });
  output.created = rows.filter((r) => !existing.has(r.phone)).length;
  output.updated = rows.length - output.created;
  return output;
}
