import { eq } from "drizzle-orm";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import * as sandboxInboundRoute from "@/app/api/sandbox/inbound/route";
import * as contactRoute from "@/app/v1/contacts/[id]/route";
import * as contactsExportRoute from "@/app/v1/contacts/export/route";
import * as reportsExportRoute from "@/app/v1/reports/export/route";
import { getDb } from "@/db";
import { contacts, conversations } from "@/db/schema";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";
import { nextPhone } from "@/tests/support/messaging";

// Every CSV export: a cell holding a comma, semicolon, quote or line break is quoted, and a cell
// a spreadsheet would run as a formula (=, +, -, @, tab, CR first) starts with an apostrophe.

describe("CSV exports", () => {
  it("quote cells with a semicolon and defuse formulas in every column, in the contacts and the conversations exports", async () => {
    const { account, adminToken } = await createTestAccount();
    const phone = nextPhone();
    const hello = await call(sandboxInboundRoute.POST, {
      method: "POST",
      path: "/api/sandbox/inbound",
      token: adminToken,
      body: { from: phone, name: "=1+2;Ana", type: "text", text: "Hola" },
    });
    expect(hello.status, hello.text).toBe(201);
    const [contact] = await getDb().select().from(contacts).where(eq(contacts.phone, phone));
    const patched = await call(contactRoute.PATCH, {
      method: "PATCH",
      path: `/v1/contacts/${contact.id}`,
      token: adminToken,
      params: { id: contact.id },
      body: { notes: "Ana; Bea", email: "ana@example.com" },
    });
    expect(patched.status, patched.text).toBe(200);
    await getDb()
      .update(conversations)
      .set({ labels: [{ id: "lbl_a", name: "-urgent", color: "red" }, { id: "lbl_b", name: "VIP", color: "blue" }] as never })
      .where(eq(conversations.accountId, account.id));

    const people = await call(contactsExportRoute.GET, { path: "/v1/contacts/export", token: adminToken });
    expect(people.status).toBe(200);
    const row = people.text.split("\r\n").find((line) => line.startsWith(contact.id))!;
    expect(row).toContain(`,"'=1+2;Ana",ana@example.com,"Ana; Bea",false,`);
    const [fields, ...rows] = parse(people.text, { record_delimiter: "\r\n" }) as string[][];
    const read = Object.fromEntries(fields.map((field, i) => [field, rows.find((cells) => cells[0] === contact.id)![i]]));
    expect(read).toMatchObject({ name: "'=1+2;Ana", notes: "Ana; Bea" });

    const now = Date.now();
    const range = `from=${new Date(now - 3_600_000).toISOString()}&to=${new Date(now + 3_600_000).toISOString()}`;
    const report = await call(reportsExportRoute.GET, { path: `/v1/reports/export?${range}`, token: adminToken });
    expect(report.status).toBe(200);
    const [header, ...records] = parse(report.text, { record_delimiter: "\r\n" }) as string[][];
    const record = Object.fromEntries(header.map((field, i) => [field, records[0][i]]));
    expect(record.contact_name).toBe("'=1+2;Ana");
    expect(record.labels).toBe("'-urgent; VIP");
    expect(report.text).toContain(`,"'=1+2;Ana",`);
    expect(report.text).toContain(`,"'-urgent; VIP",`);
  });
});
