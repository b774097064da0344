import http from "node:http";
import { expect, test } from "@playwright/test";
import { adminApiToken } from "./helpers";

// What an outside client sees of the real server (scripts/server.mjs, the proxy, Next.js
// routing): whole bodies, refused addresses and oversized headers.

const PORT = Number(process.env.E2E_PORT ?? 3100);

/**
 * A raw HTTP/1.1 request with node:http, which sends the path exactly as written. The body goes
 * in 1 MiB chunks (`paced`: 50 ms apart) and stops once an answer arrives, as curl does: a server
 * may refuse a body before reading it all, and a client still pushing it could lose the answer.
 */
function rawRequest(
  method: string,
  path: string,
  { headers = {}, body, paced = false }: { headers?: Record<string, string>; body?: Buffer; paced?: boolean } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      { host: "127.0.0.1", port: PORT, method, path, headers: { ...headers, ...(body ? { "content-length": String(body.length) } : {}) }, maxHeaderSize: 64 * 1024 },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") });
          req.destroy();
        });
        res.on("error", reject);
      },
    );
    req.on("error", (error) => {
      if (!answered) reject(new Error(`${method} ${path}: ${error.message} after sending ${offset} bytes`));
    });
    let offset = 0;
    const pump = () => {
      while (body && offset < body.length && !answered) {
        const chunk = body.subarray(offset, offset + 1024 * 1024);
        offset += chunk.length;
        const flowing = req.write(chunk);
        if (paced) return void setTimeout(pump, 50);
        if (!flowing) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

/** A PDF of about `bytes` bytes (its signature, filler, its end marker). */
function pdfOf(bytes: number) {
  return Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(bytes, 0x41), Buffer.from("\n%%EOF\n")]);
}

test.describe("bodies arrive whole", () => {
  test("a 15 MB document is sent through POST /v1/messages; a 33 MiB body is a 413 with the error body", async ({ request }) => {
    test.setTimeout(120_000);
    const token = await adminApiToken(request);
    const pdf = pdfOf(15 * 1000 * 1000);
    const body = Buffer.from(
      JSON.stringify({ to: "14155550123", type: "document", media: { mime_type: "application/pdf", data: pdf.toString("base64"), filename: "catalogue.pdf" } }),
    );
    expect(body.length).toBeGreaterThan(20 * 1000 * 1000);
    const sent = await rawRequest("POST", "/v1/messages", { headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body });
    expect(sent.status, sent.body.slice(0, 300)).toBe(201);
    const message = JSON.parse(sent.body);
    expect(message.type).toBe("document");
    expect(message.media.size).toBe(pdf.length);

    const tooLarge = Buffer.alloc(33 * 1024 * 1024, 0x20);
    const refused = await rawRequest("POST", "/v1/messages", { headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: tooLarge, paced: true });
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body)).toEqual({
      error: { code: "payload_too_large", message: expect.any(String) },
      request_id: refused.headers["x-request-id"],
    });
  });
});

/** Sends only the request head (and `sent` bytes of body), then waits for an answer. */
function headOnly(path: string, headers: Record<string, string>, sent = 0): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: PORT, method: "POST", path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") });
        req.destroy();
      });
    });
    req.on("error", reject);
    req.setTimeout(10_000, () => reject(new Error(`${path}: no answer within 10 s`)));
    if (sent) req.write(Buffer.alloc(sent, 0x20));
    req.flushHeaders();
  });
}

test.describe("bodies over the largest limit are refused before they are read", () => {
  test("a declared Content-Length over 32 MiB is a 413 at once, without a token and before the body is sent", async () => {
    for (const path of ["/v1/messages", "/login", "/oauth/token"]) {
      const refused = await headOnly(path, { "content-type": "application/json", "content-length": String(64 * 1024 * 1024) }, 1024);
      expect(refused.status, path).toBe(413);
      expect(refused.headers.connection).toBe("close");
      expect(JSON.parse(refused.body)).toEqual({ error: { code: "payload_too_large", message: expect.any(String) }, request_id: refused.headers["x-request-id"] });
    }
    const plant = await headOnly("/plant-store/store/order", { "content-type": "application/json", "content-length": String(33 * 1024 * 1024) });
    expect(plant.status).toBe(413);
    expect(plant.headers["x-request-id"]).toMatch(/^req_/);
    expect(JSON.parse(plant.body)).toEqual({ error: 413, message: expect.any(String) });
  });

  test("a streamed (chunked) body is a 413 once it passes 32 MiB, without a token", async () => {
    test.setTimeout(60_000);
    const refused = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; sent: number }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const req = http.request({ host: "127.0.0.1", port: PORT, method: "POST", path: "/v1/messages", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } }, (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8"), sent });
          req.destroy();
        });
      });
      req.on("error", (error) => {
        if (!answered) reject(error);
      });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      const pump = () => {
        // Up to 40 MiB, 1 MiB at a time, stopping once the answer arrives.
        if (answered || sent >= 40 * 1024 * 1024) return;
        sent += chunk.length;
        if (req.write(chunk)) setImmediate(pump);
        else req.once("drain", pump);
      };
      pump();
    });
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body)).toEqual({ error: { code: "payload_too_large", message: expect.any(String) }, request_id: refused.headers["x-request-id"] });
    expect(refused.sent).toBeLessThan(40 * 1024 * 1024);
  });
});

test.describe("addresses that cannot be decoded", () => {
  test("a malformed %-escape in a path id is a 400 with the error body and request id on every API", async ({ request }) => {
    const token = await adminApiToken(request);
    const auth = { authorization: `Bearer ${token}` };
    for (const [method, path] of [
      ["GET", "/v1/conversations/%E0%A4%A"],
      ["GET", "/v1/contacts/%"],
      ["DELETE", "/v1/webhooks/%ZZ"],
      ["POST", "/v1/conversations/%E0%A4%A/close"],
      ["GET", "/v1/nothing/%"],
      ["GET", "/v1/conversations/conv_1%/messages"],
    ]) {
      const res = await rawRequest(method, path, { headers: { ...auth, "x-request-id": "req_seams_1" } });
      expect(res.status, `${method} ${path}: ${res.body.slice(0, 200)}`).toBe(400);
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
      expect(res.headers["x-request-id"]).toBe("req_seams_1");
      expect(res.headers["ratelimit-remaining"]).toMatch(/^\d+$/);
      expect(JSON.parse(res.body)).toEqual({
        error: { code: "validation_error", message: expect.stringMatching(/percent-escape/), details: [{ path: "path", message: expect.any(String) }] },
        request_id: "req_seams_1",
      });
    }
    const plant = await rawRequest("DELETE", "/plant-store/plants/%", { headers: auth });
    expect(plant.status).toBe(400);
    expect(JSON.parse(plant.body)).toEqual({ error: 400, message: expect.stringMatching(/percent-escape/) });
    expect(plant.headers["x-request-id"]).toMatch(/^req_/);
    // A NUL in a path id is a 400 too.
    const nul = await rawRequest("GET", "/v1/contacts/ctc_1%00", { headers: auth });
    expect(nul.status).toBe(400);
    expect(JSON.parse(nul.body).error.details).toEqual([{ path: "path", message: expect.stringMatching(/NUL/) }]);
  });

  test("a page address with a malformed %-escape shows the app's 400 page", async ({ page }) => {
    const res = await page.goto("/inbox/%E0%A4%A");
    expect(res?.status()).toBe(400);
    await expect(page.getByRole("heading", { name: "This address cannot be read" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Go to the inbox" })).toBeVisible();
  });
});

test.describe("oversized request headers", () => {
  test("are a 431 with the error body and a request id", async () => {
    const res = await rawRequest("GET", "/v1/account", { headers: { "x-padding": "x".repeat(20 * 1024) } });
    expect(res.status).toBe(431);
    expect(res.headers["x-request-id"]).toMatch(/^req_/);
    expect(JSON.parse(res.body)).toEqual({
      error: { code: "request_header_fields_too_large", message: expect.any(String) },
      request_id: res.headers["x-request-id"],
    });
  });
});
