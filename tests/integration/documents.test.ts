import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as fileRoute from "@/app/v1/config/documents/[id]/file/route";
import * as documentRoute from "@/app/v1/config/documents/[id]/route";
import * as documentsRoute from "@/app/v1/config/documents/route";
import { getDb } from "@/db";
import { documents } from "@/db/schema";
import { DOCUMENT_MAX_BYTES, DOCUMENTS_PER_ACCOUNT } from "@/lib/profile/schemas";
import { loadDocumentContext } from "@/lib/profile/documents";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { makePdf } from "@/tests/support/pdf";

const path = "/v1/config/documents";
const upload = (token: string, body: unknown) => call(documentsRoute.POST, { method: "POST", path, token, body });
const pdfBody = (pages: string[], filename = "catalogue.pdf") => ({ filename, data: makePdf(pages).toString("base64") });
const rowsOf = (accountId: string) => getDb().select().from(documents).where(eq(documents.accountId, accountId));

describe("documents API", () => {
  it("stores a PDF with its size, page count and extracted text", async () => {
    const { account, adminToken } = await createTestAccount();
    const pdf = makePdf(["Opening hours: Monday to Friday 09:00-18:00", "Returns accepted within 30 days (with receipt)"]);
    const res = await upload(adminToken, { filename: "C:\\Users\\ana\\policies.pdf", data: pdf.toString("base64") });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^doc_/),
      filename: "policies.pdf",
      size: pdf.length,
      pages: 2,
      text_length: expect.any(Number),
      created_at: expect.any(String),
    });
    const [row] = await rowsOf(account.id);
    expect(row.text).toContain("Opening hours: Monday to Friday 09:00-18:00");
    expect(row.text).toContain("Returns accepted within 30 days (with receipt)");
    expect(Buffer.compare(row.bytes, pdf)).toBe(0);
    expect(res.body.text_length).toBe(row.text.length);

    const list = await call(documentsRoute.GET, { path, token: adminToken });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ data: [res.body], pagination: { next_cursor: null, has_more: false } });
    expect(list.text).not.toContain("Opening hours");

    const one = await call(documentRoute.GET, { path: `${path}/${res.body.id}`, token: adminToken, params: { id: res.body.id } });
    expect(one.body).toEqual({ ...res.body, text: row.text });

    const file = await call(fileRoute.GET, { path: `${path}/${res.body.id}/file`, token: adminToken, params: { id: res.body.id } });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.text.startsWith("%PDF-1.4")).toBe(true);
  });

  it("accepts a data: URL as the browser's FileReader produces it", async () => {
    const { adminToken } = await createTestAccount();
    const res = await upload(adminToken, { filename: "menu.pdf", data: `data:application/pdf;base64,${makePdf(["Menu"]).toString("base64")}` });
    expect(res.status).toBe(201);
    expect(res.body.pages).toBe(1);
  });

  it.each([
    ["a PNG", { filename: "photo.pdf", data: Buffer.from("89504e470d0a1a0a0000000d49484452", "hex").toString("base64") }, "data", /PDF/],
    ["plain text named .pdf", { filename: "notes.pdf", data: Buffer.from("Opening hours 9-18").toString("base64") }, "data", /PDF/],
    ["a damaged PDF", { filename: "broken.pdf", data: Buffer.from("%PDF-1.7\nthis is not really a pdf\n").toString("base64") }, "data", /could not be read/],
    ["invalid Base64", { filename: "x.pdf", data: "%%%not-base64%%%" }, "data", /Base64/],
    ["empty data", { filename: "x.pdf", data: "" }, "data", /required/],
    ["a missing filename", { data: makePdf(["x"]).toString("base64") }, "filename", /required/],
    ["a filename over 255 characters", { filename: `${"a".repeat(252)}.pdf`, data: makePdf(["x"]).toString("base64") }, "filename", /255/],
  ])("refuses %s with a 400 naming the field, storing nothing", async (_name, body, field, message) => {
    const { account, adminToken } = await createTestAccount();
    const res = await upload(adminToken, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_error");
    expect(res.body.error.details[0].path).toBe(field);
    expect(res.body.error.details[0].message).toMatch(message);
    expect(await rowsOf(account.id)).toHaveLength(0);
  });

  it("refuses a PDF over 10 MiB with a 400 naming data, and accepts one of exactly 10 MiB", async () => {
    const { account, adminToken } = await createTestAccount();
    const tooBig = await upload(adminToken, { filename: "big.pdf", data: makePdf(["Big"], { padTo: DOCUMENT_MAX_BYTES + 1 }).toString("base64") });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error.details[0]).toMatchObject({ path: "data", message: expect.stringMatching(/10 MiB/) });
    expect(await rowsOf(account.id)).toHaveLength(0);
    const atLimit = await upload(adminToken, { filename: "limit.pdf", data: makePdf(["Limit"], { padTo: DOCUMENT_MAX_BYTES }).toString("base64") });
    expect(atLimit.status).toBe(201);
    expect(atLimit.body.size).toBe(DOCUMENT_MAX_BYTES);
  });

  it("answers 413 for a body over the 32 MiB route limit", async () => {
    const { adminToken } = await createTestAccount();
    const res = await call(documentsRoute.POST, {
      method: "POST",
      path,
      token: adminToken,
      rawBody: JSON.stringify({ filename: "huge.pdf", data: "A".repeat(32 * 1024 * 1024) }),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
  });

  it(`keeps at most ${DOCUMENTS_PER_ACCOUNT} documents per account (409), and deleting one frees a place`, async () => {
    const { account, adminToken } = await createTestAccount();
    const ids: string[] = [];
    for (let i = 0; i < DOCUMENTS_PER_ACCOUNT; i++) {
      const res = await upload(adminToken, pdfBody([`Document ${i}`], `doc-${i}.pdf`));
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const extra = await upload(adminToken, pdfBody(["One too many"]));
    expect(extra.status).toBe(409);
    expect(extra.body.error.code).toBe("conflict");
    expect(await rowsOf(account.id)).toHaveLength(DOCUMENTS_PER_ACCOUNT);

    const page = await call(documentsRoute.GET, { path: `${path}?limit=15`, token: adminToken });
    expect(page.body.data).toHaveLength(15);
    const rest = await call(documentsRoute.GET, { path: `${path}?limit=15&cursor=${page.body.pagination.next_cursor}`, token: adminToken });
    expect([...page.body.data, ...rest.body.data].map((d: { id: string }) => d.id)).toEqual(ids);

    const removed = await call(documentRoute.DELETE, { method: "DELETE", path: `${path}/${ids[3]}`, token: adminToken, params: { id: ids[3] } });
    expect(removed.status).toBe(204);
    const again = await call(documentRoute.DELETE, { method: "DELETE", path: `${path}/${ids[3]}`, token: adminToken, params: { id: ids[3] } });
    expect(again.status).toBe(404);
    expect((await upload(adminToken, pdfBody(["Now it fits"]))).status).toBe(201);
  });

  it("hides other accounts' documents (404) and keeps agents read-only", async () => {
    const owner = await createTestAccount();
    const stranger = await createTestAccount();
    const doc = await upload(owner.adminToken, pdfBody(["Private price list"]));
    const params = { id: doc.body.id };
    expect((await call(documentRoute.GET, { path: "/", token: stranger.adminToken, params })).status).toBe(404);
    expect((await call(documentRoute.DELETE, { method: "DELETE", path: "/", token: stranger.adminToken, params })).status).toBe(404);
    expect((await call(documentsRoute.GET, { path, token: stranger.adminToken })).body.data).toEqual([]);

    const agent = await addTestUser(owner.account.id, "agent");
    expect((await call(documentsRoute.GET, { path, token: agent.token })).body.data).toHaveLength(1);
    expect((await upload(agent.token, pdfBody(["Agent upload"]))).status).toBe(403);
    expect((await call(documentRoute.DELETE, { method: "DELETE", path: "/", token: agent.token, params })).status).toBe(403);
  });

  it("shares a prompt budget between documents, giving a short one's leftover to the others", async () => {
    const { account, adminToken } = await createTestAccount();
    await upload(adminToken, pdfBody(["Short note"], "short.pdf"));
    // pdf.js reads only what lies on the page, so long texts are spread over several pages.
    await upload(adminToken, pdfBody(Array.from({ length: 5 }, () => "L".repeat(60)), "long-a.pdf"));
    await upload(adminToken, pdfBody(Array.from({ length: 5 }, () => "M".repeat(60)), "long-b.pdf"));
    const context = await loadDocumentContext(getDb(), { accountId: account.id, budget: 310 });
    expect(context.map((d) => d.filename)).toEqual(["short.pdf", "long-a.pdf", "long-b.pdf"]);
    expect(context[0]).toEqual({ filename: "short.pdf", text: "Short note", truncated: false });
    expect(context[1].text).toBe(`${"L".repeat(60)}\n\n${"L".repeat(60)}\n\n${"L".repeat(26)}`);
    expect(context[1].text.length + context[2].text.length).toBe(300);
    expect(context[1].truncated && context[2].truncated).toBe(true);
  });
});
