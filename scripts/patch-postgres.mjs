// Run after `npm install` / `npm ci` (postinstall): fixes a fault of the PostgreSQL driver
// (postgres 3.4.x, the newest release) that turns a database restart into hung requests.
//
// When the server closes a connection in the middle of a transaction, the driver still sends the
// transaction's ROLLBACK on the closed connection: its write throws inside a timer (an uncaught
// TypeError) and leaves the connection's write timer set, so nothing the connection sends later
// (not even the greeting of its next connection) is ever written. Requests then hang until the
// connection times out again and again, for as long as 20 s after the database is back.
//
// And a connection closed while a query ran keeps that query and the server's last error (such
// as 57P01, "terminating connection due to administrator command"): the first query of its next
// connection is failed with that stale error, a 503 after the database is back.
//
// The fix: a query sent on a connection that has closed is refused at once (CONNECTION_CLOSED,
// which the app answers as 503 service_unavailable), a write with no socket is dropped, and a
// closed connection forgets its last query and error. Applied once per file (a marker says so);
// a driver whose code no longer matches is left alone with a warning.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const MARK = "/* chorus: closed-connection fix */";
const edits = [
  [
    "  function execute(q) {\n    if (terminated)\n      return queryError(q, Errors.connection('CONNECTION_DESTROYED', options))\n",
    `  function execute(q) {\n    if (terminated)\n      return queryError(q, Errors.connection('CONNECTION_DESTROYED', options))\n\n    ${MARK}\n    if (!socket && !initial)\n      return (queryError(q, Errors.connection('CONNECTION_CLOSED', options)), true)\n`,
  ],
  [
    "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)\n",
    `  function nextWrite(fn) {\n    ${MARK}\n    if (!socket)\n      return (clearImmediate(nextWriteTimer), chunk = nextWriteTimer = null, false)\n    const x = socket.write(chunk, fn)\n`,
  ],
  [
    "    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n",
    `    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n    ${MARK}\n    query = errorResponse = null\n`,
  ],
];

for (const variant of ["src", "cjs/src", "cf/src"]) {
  const file = path.join(root, "node_modules", "postgres", variant, "connection.js");
  if (!existsSync(file)) continue;
  let text = readFileSync(file, "utf8");
  if (text.includes(MARK)) continue;
  if (!edits.every(([from]) => text.includes(from))) {
    console.warn(`patch-postgres: ${path.relative(root, file)} does not match the expected driver code; left unpatched (see scripts/patch-postgres.mjs).`);
    continue;
  }
  for (const [from, to] of edits) text = text.replace(from, to);
  writeFileSync(file, text);
}
