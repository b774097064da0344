// The worker thread that owns the embedded database (PGlite). PostgreSQL-in-WASM runs every
// statement synchronously on the thread that calls it; here that thread is this worker, so the
// server's own thread keeps answering (liveness, rate limits, load shedding) while a statement
// runs. The server talks to it through db/pglite-client.ts.
//
// One statement or one transaction holds the database at a time, in arrival order, except
// that those of work that yields (a campaign's sending: `yields` on the message) wait until no
// other one is waiting, so an agent's send never queues behind bulk work. A transaction holds
// the database from BEGIN until the server says how it ends; its statements skip the queue
// (nothing else may run inside it). The queue's length, the recent time a job held the
// database, and when the running job began are shared with the server's thread through a
// SharedArrayBuffer, read without a message round trip.
import { parentPort, workerData } from "node:worker_threads";
import { newPglite, SERVER_START_PARAMS, withPreparedStatements } from "./pglite-engine.mjs";

const { dataDir, load } = workerData;
// load: [0] jobs waiting (not counting those that yield), [1] recent time a job held the database (ms, moving average),
// [2] when the running job began (epoch ms; 0 when idle), [3]/[4] jobs run and ms the database
// was held by them since it opened, [5]/[6] the same for jobs of work that yields.
const shared = new Float64Array(load);

const raw = newPglite(dataDir, { startParams: SERVER_START_PARAMS });
const db = withPreparedStatements(raw);

/** An error as plain data: its class name, message and PostgreSQL fields (code, detail, constraint…). */
function plainError(error) {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === "function" || key === "query" || key === "params") continue;
    fields[key] = typeof value === "object" && value !== null ? String(value) : value;
  }
  return { ...fields, name: error.name, message: error.message };
}

const reply = (id, ok, value, ms) => parentPort.postMessage(ok ? { id, ok, value, ms } : { id, ok, error: plainError(value), ms });

/**
 * The caller's own type parsers are functions, which do not cross threads: their types come back
 * as the database's text and the caller parses them.
 */
function queryOptions(options) {
  if (!options) return undefined;
  const { rawTypes, ...rest } = options;
  if (!rawTypes?.length) return rest;
  return { ...rest, parsers: Object.fromEntries(rawTypes.map((oid) => [oid, (value) => value])) };
}

/** The parts of a result the server reads (they cross threads as structured clones). */
const plainResults = (results) => ({ rows: results.rows, fields: results.fields, affectedRows: results.affectedRows });

const queue = [];
/** Jobs of work that yields: taken only when `queue` is empty. */
const yielding = [];
let busy = false;
let average = 0;
const publish = () => {
  shared[0] = queue.length;
  shared[1] = average;
};

// A job starts on the next turn of the event loop, not in the handler of its message: a job
// holds this thread while it runs, and the messages already sent (a statement that need not
// yield among them) are all queued first.
let pumping = false;
function pumpSoon() {
  if (pumping) return;
  pumping = true;
  setImmediate(() => {
    pumping = false;
    void pump();
  });
}

function schedule(job, yields = false) {
  (yields ? yielding : queue).push(job);
  publish();
  pumpSoon();
}

async function pump() {
  if (busy) return;
  const yields = queue.length === 0;
  const job = queue.shift() ?? yielding.shift();
  if (!job) return publish();
  busy = true;
  const started = Date.now();
  shared[2] = started;
  publish();
  try {
    await job();
  } finally {
    const ms = Date.now() - started;
    // A moving average of the last few dozen jobs: how long each one ahead of a new one will take.
    average = average === 0 ? ms : average * 0.9 + ms * 0.1;
    shared[yields ? 5 : 3] += 1;
    shared[yields ? 6 : 4] += ms;
    shared[2] = 0;
    busy = false;
    publish();
    // The next job is picked once the messages that arrived meanwhile are queued.
    pumpSoon();
  }
}

const transactions = new Map();
let nextTransaction = 0;
const subscriptions = new Map();

/** Runs `fn` now, answering message `id` with its result and how long it took. */
async function answer(id, fn) {
  const started = Date.now();
  try {
    reply(id, true, await fn(), Date.now() - started);
  } catch (error) {
    reply(id, false, error, Date.now() - started);
  }
}

const run = {
  query: ({ text, params, options }, executor) => executor.query(text, params, queryOptions(options)).then(plainResults),
  exec: ({ text }, executor) => executor.exec(text).then((all) => all.map(plainResults)),
};

parentPort.on("message", (message) => {
  const { id, op } = message;
  if (op === "query" || op === "exec") {
    if (message.tx !== undefined) {
      const tx = transactions.get(message.tx);
      if (!tx) return reply(id, false, new Error("Transaction is closed"), 0);
      return void answer(id, () => run[op](message, tx.tx));
    }
    return schedule(() => answer(id, () => run[op](message, db)), message.yields === true);
  }
  if (op === "begin") {
    // Holds the database until the server sends "end" for it; the answer to "begin" is its number.
    return schedule(
      () =>
        new Promise((done) => {
          const number = ++nextTransaction;
          let endId;
          db.transaction(
            (tx) =>
              new Promise((commit, rollback) => {
                transactions.set(number, { tx, commit, rollback, setEnd: (value) => (endId = value) });
                reply(id, true, number, 0);
              }),
          )
            .then(
              () => reply(endId, true, null, 0),
              (error) => (endId === undefined ? reply(id, false, error, 0) : reply(endId, false, error, 0)),
            )
            .finally(() => {
              transactions.delete(number);
              done();
            });
        }),
      message.yields === true,
    );
  }
  if (op === "end") {
    const tx = transactions.get(message.tx);
    if (!tx) return reply(id, false, new Error("Transaction is closed"), 0);
    tx.setEnd(id);
    // PGlite commits when the callback returns and rolls back when it throws.
    return message.commit ? tx.commit() : tx.rollback(Object.assign(new Error("rolled back"), { name: "Rollback" }));
  }
  if (op === "listen") {
    return schedule(() =>
      answer(id, async () => {
        const forward = (payload) => parentPort.postMessage({ type: "notify", channel: message.channel, payload });
        const unsubscribe = await raw.listen(message.channel, forward);
        subscriptions.set(message.subscription, unsubscribe);
        return null;
      }),
    );
  }
  if (op === "unlisten") {
    return schedule(() =>
      answer(id, async () => {
        const unsubscribe = subscriptions.get(message.subscription);
        subscriptions.delete(message.subscription);
        await unsubscribe?.();
        return null;
      }),
    );
  }
  if (op === "dump") {
    // A consistent snapshot of the data folder, taken between two jobs (no transaction open).
    return schedule(() => answer(id, async () => new Uint8Array(await (await raw.dumpDataDir(message.compression)).arrayBuffer())));
  }
  if (op === "close") {
    return schedule(() =>
      answer(id, async () => {
        if (!raw.closed) await raw.close();
        return null;
      }),
    );
  }
  reply(id, false, new Error(`unknown operation ${op}`), 0);
});

// Statements wait until the database has opened; one that cannot open ends the worker.
await raw.waitReady;
