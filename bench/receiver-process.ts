// Local webhook receivers in a process of their own, as real receivers are: their HTTP work
// does not share the engine's thread. Driven by bench/webhooks.ts over the IPC channel:
//   { type: "start", id, hang }      → { type: "started", id, url }
//   { type: "stop-hanging", id }     answers every held delivery, holds no more
//   { type: "close", id }            → { type: "closed", id }
// and reports first attempts in batches: { type: "arrivals", list: [[id, eventId, at], …] }, `at`
// in milliseconds of the system's monotonic clock (process.hrtime), the same in both processes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

type Message = { type: "start"; id: number; hang: boolean } | { type: "stop-hanging"; id: number } | { type: "close"; id: number };
type Receiver = { server: Server; held: Set<ServerResponse>; hanging: boolean };

const receivers = new Map<number, Receiver>();
let pending: [number, string, number][] = [];
let flushTimer: NodeJS.Timeout | undefined;

const send = (message: unknown) => process.send?.(message);

function flush() {
  flushTimer = undefined;
  if (!pending.length) return;
  send({ type: "arrivals", list: pending });
  pending = [];
}

function arrived(id: number, eventId: string, at: number) {
  pending.push([id, eventId, at]);
  if (pending.length >= 500) flush();
  else flushTimer ??= setTimeout(flush, 5);
}

/** Answers the challenge, then 200 (or holds every delivery while hanging). */
function start(id: number, hang: boolean) {
  const receiver: Receiver = { server: undefined as unknown as Server, held: new Set(), hanging: hang };
  receiver.server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = Number(process.hrtime.bigint()) / 1e6;
      if (req.headers["x-service-event-type"] === "webhook.verified") {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        res.writeHead(200).end(body.data.challenge);
        return;
      }
      if (req.headers["x-service-delivery-attempt"] === "1") arrived(id, String(req.headers["x-service-event-id"]), at);
      if (receiver.hanging) receiver.held.add(res);
      else res.writeHead(200).end("ok");
    });
  });
  receiver.server.keepAliveTimeout = 5_000;
  receiver.server.listen(0, "127.0.0.1", () => {
    receivers.set(id, receiver);
    send({ type: "started", id, url: `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hook` });
  });
}

function stopHanging(receiver: Receiver) {
  receiver.hanging = false;
  for (const res of receiver.held) if (!res.destroyed) res.writeHead(200).end("ok");
  receiver.held.clear();
}

process.on("message", (message: Message) => {
  const receiver = receivers.get(message.id);
  if (message.type === "start") start(message.id, message.hang);
  else if (message.type === "stop-hanging" && receiver) stopHanging(receiver);
  else if (message.type === "close" && receiver) {
    flush();
    stopHanging(receiver);
    receiver.server.closeAllConnections();
    receiver.server.close(() => {
      receivers.delete(message.id);
      send({ type: "closed", id: message.id });
    });
  }
});
// The benchmark ends (or dies): so does this process.
process.on("disconnect", () => process.exit(0));
