import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export type ChatRequest = {
  authorization: string | undefined;
  body: { model?: string; messages?: { role: string; content: string }[] };
};

type Mode = { kind: "reply"; make: (request: ChatRequest) => string | null } | { kind: "answer"; content: string | null } | { kind: "status"; status: number } | { kind: "slow"; ms: number; content: string } | { kind: "not-json" };

/**
 * An OpenAI-compatible chat-completions endpoint on 127.0.0.1 that answers what the test says:
 * a given reply (fixed or made from the request), an HTTP error, a slow reply, or a body that is
 * not JSON.
 */
export async function startFakeLlm({ port: wanted = 0 }: { port?: number } = {}) {
  const requests: ChatRequest[] = [];
  let mode: Mode = { kind: "answer", content: "Polished by the model." };
  const sockets = new Set<import("node:net").Socket>();

  const readJson = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
  };

  const server = createServer(async (req, res) => {
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      res.writeHead(404).end();
      return;
    }
    const request: ChatRequest = { authorization: req.headers.authorization, body: await readJson(req) };
    requests.push(request);
    const current = mode.kind === "reply" ? ({ kind: "answer", content: mode.make(request) } as const) : mode;
    if (current.kind === "status") {
      res.writeHead(current.status, { "Content-Type": "application/json" }).end(JSON.stringify({ error: { message: "boom" } }));
      return;
    }
    if (current.kind === "not-json") {
      res.writeHead(200, { "Content-Type": "text/html" }).end("<html>gateway</html>");
      return;
    }
    if (current.kind === "slow") await new Promise((resolve) => setTimeout(resolve, current.ms));
    const content = current.kind === "slow" ? current.content : current.content;
    if (res.destroyed) return;
    res.writeHead(200, { "Content-Type": "application/json" }).end(
      JSON.stringify({ id: "chatcmpl-1", object: "chat.completion", choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }] }),
    );
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(wanted, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    answer(content: string | null) {
      mode = { kind: "answer", content };
    },
    /** Answers each request with what `make` returns for it (e.g. from the passages in its prompt). */
    reply(make: (request: ChatRequest) => string | null) {
      mode = { kind: "reply", make };
    },
    /** An answer in the assistant's JSON shape: the reply and the numbers of the passages it cites. */
    assistantAnswer(answer: string | null, sources: number[] = [1]) {
      mode = { kind: "answer", content: JSON.stringify({ answer, sources }) };
    },
    fail(status: number) {
      mode = { kind: "status", status };
    },
    slow(ms: number, content = "Too late to matter.") {
      mode = { kind: "slow", ms, content };
    },
    notJson() {
      mode = { kind: "not-json" };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
