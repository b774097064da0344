// The Chorus HTTP server: Next.js (production build, or `--dev`) plus the WebSocket endpoint
// GET /v1/ws. Next's route handlers cannot take over a connection for a WebSocket upgrade, so
// this small server hands every HTTP request to Next and answers the upgrade on /v1/ws itself.
import { EventEmitter } from "node:events";
import http from "node:http";
import path from "node:path";
import { createEventSocketHandler, WS_PATH } from "./event-socket.mjs";

const root = path.resolve(import.meta.dirname, "..");
const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
// Next reads NODE_ENV when it loads, so it is set before Next is imported.
process.env.NODE_ENV ??= dev ? "development" : "production";
const { default: next } = await import("next");

// Next attaches its own upgrade listener to the server of the first request (and ends every
// upgrade it does not know); it gets a detached emitter instead, and this server decides.
const app = next({ dev, dir: root, port, httpServer: new EventEmitter() });
const handle = app.getRequestHandler();
await app.prepare();
const nextUpgrade = dev ? app.getUpgradeHandler() : undefined;
const eventSocket = createEventSocketHandler({ port });

const server = http.createServer((req, res) => handle(req, res));
server.on("upgrade", (req, socket, head) => {
  const pathname = (req.url ?? "/").split("?")[0];
  if (pathname === WS_PATH) return eventSocket(req, socket, head);
  // In development Next's own upgrades (hot reload) go through; nothing else upgrades.
  if (nextUpgrade) return nextUpgrade(req, socket, head);
  socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
});
// A port it cannot listen on (in use, not allowed) ends the process with one line and status 1.
server.on("error", (error) => {
  const reason =
    error.code === "EADDRINUSE"
      ? `port ${port} is already in use by another process`
      : error.code === "EACCES"
        ? `port ${port} needs privileges this process does not have`
        : error.message;
  console.error(`Chorus cannot listen: ${reason}. Stop the other server or set PORT to a free port.`);
  process.exit(1);
});
server.listen(port, () => console.log(`Listening on port ${port} (HTTP/1.1 and WebSocket ${WS_PATH}).`));
