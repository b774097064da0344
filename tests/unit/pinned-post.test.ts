import http from "node:http";
import type { AddressInfo } from "node:net";
import tls from "node:tls";
import { afterEach, describe, expect, it } from "vitest";
import { pinnedPost } from "@/lib/platform/http/pinned-post";

type Received = { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string };

const servers: http.Server[] = [];

async function startServer(
  handler: (request: http.IncomingMessage, response: http.ServerResponse, received: Received) => void,
): Promise<{ port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry = {
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      received.push(entry);
      handler(request, response, entry);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, received };
}

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

const envelope = JSON.stringify({ id: "evt_1", type: "message.sent", data: {} });
const baseHeaders = { "Content-Type": "application/json", "User-Agent": "Chorus-Webhooks/1" };

function post(url: string, overrides: Partial<Parameters<typeof pinnedPost>[0]> = {}) {
  return pinnedPost({
    url: new URL(url),
    address: "127.0.0.1",
    family: 4,
    headers: baseHeaders,
    body: envelope,
    timeoutMs: 2_000,
    ...overrides,
  });
}

describe("pinnedPost", () => {
  it("returns ok with the body of a 200 answer and sends the payload as given", async () => {
    const { port, received } = await startServer((_request, response) => {
      response.writeHead(200, { "Content-Type": "text/plain" });
      response.end("challenge-123");
    });
    const result = await post(`http://127.0.0.1:${port}/hooks/chorus?source=test`);
    expect(result).toMatchObject({ ok: true, status: 200, body: "challenge-123" });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: "POST", url: "/hooks/chorus?source=test", body: envelope });
    expect(received[0].headers["content-type"]).toBe("application/json");
    expect(received[0].headers["user-agent"]).toBe("Chorus-Webhooks/1");
    expect(received[0].headers["content-length"]).toBe(String(Buffer.byteLength(envelope)));
  });

  it("treats any 2xx as success", async () => {
    const { port } = await startServer((_request, response) => {
      response.writeHead(204);
      response.end();
    });
    expect(await post(`http://127.0.0.1:${port}/`)).toMatchObject({ ok: true, status: 204, body: "" });
  });

  it("reports a 500 as a failure with its status and body", async () => {
    const { port } = await startServer((_request, response) => {
      response.writeHead(500);
      response.end("receiver broke");
    });
    const result = await post(`http://127.0.0.1:${port}/`);
    expect(result).toMatchObject({ ok: false, status: 500, body: "receiver broke", error: "unexpected status 500" });
  });

  it("reports a 410 Gone with its status", async () => {
    const { port } = await startServer((_request, response) => {
      response.writeHead(410);
      response.end("gone");
    });
    expect(await post(`http://127.0.0.1:${port}/`)).toMatchObject({ ok: false, status: 410, body: "gone" });
  });

  it("does not follow a redirect", async () => {
    const { port, received } = await startServer((request, response) => {
      if (request.url === "/start") {
        response.writeHead(302, { Location: "/elsewhere" });
        response.end("moved");
        return;
      }
      response.writeHead(200);
      response.end("followed");
    });
    const result = await post(`http://127.0.0.1:${port}/start`);
    expect(result).toMatchObject({ ok: false, status: 302, body: "moved", error: "redirect not followed" });
    expect(received.map((entry) => entry.url)).toEqual(["/start"]);
  });

  it("gives up on a slow receiver after the timeout", async () => {
    const { port } = await startServer((_request, response) => {
      setTimeout(() => {
        if (!response.destroyed) response.end("too late");
      }, 2_000);
    });
    const result = await post(`http://127.0.0.1:${port}/`, { timeoutMs: 150 });
    expect(result).toMatchObject({ ok: false, error: "timeout after 150 ms" });
    expect(result).not.toHaveProperty("status");
    expect(result.durationMs).toBeGreaterThanOrEqual(140);
    expect(result.durationMs).toBeLessThan(1_500);
  });

  it("counts a body that keeps trickling in against the same timeout", async () => {
    const { port } = await startServer((_request, response) => {
      response.writeHead(200);
      response.write("a");
      const interval = setInterval(() => {
        if (response.destroyed) clearInterval(interval);
        else response.write("a");
      }, 20);
      response.on("close", () => clearInterval(interval));
    });
    const result = await post(`http://127.0.0.1:${port}/`, { timeoutMs: 200 });
    expect(result).toMatchObject({ ok: false, error: "timeout after 200 ms" });
  });

  it("reports a refused connection", async () => {
    const { port } = await startServer(() => {});
    await new Promise<void>((resolve) => {
      const server = servers.pop()!;
      server.close(() => resolve());
    });
    const result = await post(`http://127.0.0.1:${port}/`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain("ECONNREFUSED");
  });

  it("keeps only the first 2048 bytes of a large answer", async () => {
    const { port } = await startServer((_request, response) => {
      response.writeHead(200);
      response.end("x".repeat(1_000_000));
    });
    const result = await post(`http://127.0.0.1:${port}/`);
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(result.body).toHaveLength(2048);
  });

  it("honours a smaller response limit", async () => {
    const { port } = await startServer((_request, response) => {
      response.writeHead(500);
      response.end("0123456789");
    });
    expect(await post(`http://127.0.0.1:${port}/`, { maxResponseBytes: 4 })).toMatchObject({
      ok: false,
      status: 500,
      body: "0123",
    });
  });

  it("connects to the pinned address for a host name that does not resolve and sends the name as Host", async () => {
    const { port, received } = await startServer((_request, response) => {
      response.writeHead(200);
      response.end("ok");
    });
    const result = await post(`http://receiver.test:${port}/hook`);
    expect(result).toMatchObject({ ok: true, status: 200, body: "ok" });
    expect(received[0].headers.host).toBe(`receiver.test:${port}`);
  });

  it("sends the URL host name as the TLS server name while connecting to the pinned address", async () => {
    const serverNames: string[] = [];
    const server = tls.createServer({
      SNICallback: (name, callback) => {
        serverNames.push(name);
        callback(new Error("no certificate for this name"));
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await post(`https://receiver.test:${port}/`);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatch(/TLS|socket/i);
      expect(serverNames).toEqual(["receiver.test"]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("reports a TLS failure without throwing", async () => {
    const { port } = await startServer((_request, response) => {
      response.end("plain http");
    });
    const result = await post(`https://receiver.test:${port}/`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.length).toBeGreaterThan(0);
  });

  it("reports an invalid header value instead of throwing", async () => {
    const { port } = await startServer((_request, response) => response.end());
    const result = await post(`http://127.0.0.1:${port}/`, { headers: { "X-Bad": "line\nbreak" } });
    expect(result.ok).toBe(false);
  });

  it("sends again on a new connection when a kept-alive one turns out closed, and never twice after an answer", async () => {
    // The receiver drops each kept-alive connection when it is reused, without answering (a
    // receiver whose idle timeout fired just as the connection was picked up again).
    const used = new WeakMap<object, number>();
    const { port, received } = await startServer((request, response) => {
      const count = (used.get(request.socket) ?? 0) + 1;
      used.set(request.socket, count);
      if (count > 1) request.socket.destroy();
      else response.end("ok");
    });
    const url = `http://127.0.0.1:${port}/`;
    expect(await post(url, { keepAlive: true })).toMatchObject({ ok: true, status: 200 });
    expect(await post(url, { keepAlive: true })).toMatchObject({ ok: true, status: 200, body: "ok" });
    expect(received).toHaveLength(3);

    // Sent again once at most, on a connection of its own: a receiver that drops every
    // request it reads sees it twice, and the attempt fails.
    const { port: resetting, received: reset } = await startServer((request, response) => {
      const count = (used.get(request.socket) ?? 0) + 1;
      used.set(request.socket, count);
      if (count > 1 || reset.length > 1) request.socket.destroy();
      else response.end("ok");
    });
    const resettingUrl = `http://127.0.0.1:${resetting}/`;
    expect(await post(resettingUrl, { keepAlive: true })).toMatchObject({ ok: true });
    const refused = await post(resettingUrl, { keepAlive: true });
    expect(refused.ok).toBe(false);
    expect(reset).toHaveLength(3);

    // A fresh connection dropped without an answer is a failure, not sent again.
    const { port: dropping, received: dropped } = await startServer((request) => request.socket.destroy());
    const failed = await post(`http://127.0.0.1:${dropping}/`, { keepAlive: true });
    expect(failed.ok).toBe(false);
    expect(dropped).toHaveLength(1);
  });
});
