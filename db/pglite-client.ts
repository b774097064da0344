import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { QueryOptions, Results } from "@electric-sql/pglite";
import { type EarlyDatabase, LOAD_SLOTS } from "./pglite-early.mjs";
import { isYielding } from "./priority";

/**
 * The server's side of the embedded database run in a worker thread (db/pglite-worker.mjs):
 * the part of PGlite's interface the ORM, the migrator, LISTEN and maintenance use — `query`,
 * `exec`, `transaction`, `listen`, `close` — each call a message to the worker. An interactive
 * transaction holds the worker from its BEGIN until its callback settles, as in-thread.
 *
 * The worker shares how much work it holds (`queueWaitMs`): the server sheds requests with a
 * 503 instead of letting them wait behind more than a couple of seconds of statements.
 * Statements sent by work that yields (db/priority.ts: a campaign's sending) wait in the
 * worker until no other statement is waiting.
 */

export type EmbeddedTransaction = {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string): Promise<Results[]>;
  readonly closed: boolean;
};

/** What the app uses of an embedded database, in this thread (PGlite) or in the worker. */
export type EmbeddedDatabase = {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string): Promise<Results[]>;
  transaction<T>(callback: (tx: EmbeddedTransaction) => Promise<T>): Promise<T>;
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** A snapshot of the whole data folder as a tarball (what `db:backup` writes). */
  dumpDataDir(compression?: "auto" | "gzip" | "none"): Promise<File | Blob>;
  readonly closed: boolean;
};

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type Reply = { id: number; ok: boolean; value?: unknown; error?: Record<string, unknown> & { name: string; message: string } };

/** Where the worker's script lives: beside this file in the sources, whatever bundle this runs from. */
const workerScript = () => path.join(/*turbopackIgnore: true*/ process.cwd(), "db", "pglite-worker.mjs");

/**
 * Creates the database of a new data folder in a process of its own (db/pglite-create.mjs):
 * initdb's peak of memory goes with that process instead of staying with the server.
 */
async function createDatabase(dataDir: string): Promise<void> {
  const script = path.join(/*turbopackIgnore: true*/ process.cwd(), "db", "pglite-create.mjs");
  const child = spawn(process.execPath, [script, dataDir], { stdio: ["ignore", "ignore", "pipe"] });
  let said = "";
  child.stderr.on("data", (chunk) => (said += chunk));
  const code = await new Promise<number | null>((resolve, reject) => child.once("error", reject).once("exit", resolve));
  if (code !== 0) throw new Error(`creating the embedded database in ${dataDir} failed: ${said.trim().split("\n").pop() ?? `status ${code}`}`);
}

/** A PostgreSQL error as the worker sent it: same name, message and fields (code, detail, constraint…). */
function toError(plain: Reply["error"]): Error {
  const error = new Error(plain?.message ?? "embedded database error");
  Object.assign(error, plain);
  return error;
}

export class WorkerPglite implements EmbeddedDatabase {
  /**
   * [0] jobs waiting, [1] recent ms a job held the database, [2] epoch ms the running job began
   * (0 idle), [3]/[4] jobs run and ms held since it opened, [5]/[6] the same for work that yields.
   */
  private readonly load: Float64Array<SharedArrayBuffer>;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<number, { channel: string; callback: (payload: string) => void }>();
  private worker: Promise<Worker>;
  private nextId = 0;
  private isClosed = false;

  /**
   * `dataDir`: a folder (created on first use) or `memory://`. `onFailure` is told when the
   * worker stops without being asked to (the database cannot serve any more).
   */
  /**
   * `early`: the worker the server script started for this folder before Next.js loaded
   * (db/pglite-early.mjs), adopted instead of starting one.
   */
  constructor(
    private readonly dataDir: string,
    private readonly onFailure: (error: Error) => void = () => {},
    early?: EarlyDatabase,
  ) {
    this.load = early?.load ?? new Float64Array(new SharedArrayBuffer(LOAD_SLOTS * Float64Array.BYTES_PER_ELEMENT));
    this.worker = this.start(early);
  }

  get closed() {
    return this.isClosed;
  }

  /**
   * Roughly how long a statement sent now would wait before it runs: the jobs ahead of it (not
   * counting those of work that yields, which it goes ahead of) at
   * the recent time each took, plus how long the running one has held the database so far (a
   * stalled statement counts from its start).
   */
  queueWaitMs(now = Date.now()): number {
    const [waiting, average, runningSince] = this.load;
    return waiting * average + (runningSince ? Math.max(0, now - runningSince) : 0);
  }

  /** How many jobs (a statement, or a transaction from BEGIN to its end) held the database, and for how long, since it opened. */
  usage(): { jobs: number; ms: number; yieldingJobs: number; yieldingMs: number } {
    const [, , , jobs, ms, yieldingJobs, yieldingMs] = this.load;
    return { jobs, ms, yieldingJobs, yieldingMs };
  }

  private async start(early?: EarlyDatabase): Promise<Worker> {
    if (!early && !this.dataDir.startsWith("memory://") && !existsSync(path.join(this.dataDir, "PG_VERSION"))) await createDatabase(this.dataDir);
    const worker = early?.worker ?? new Worker(workerScript(), { workerData: { dataDir: this.dataDir, load: this.load.buffer } });
    worker.on("message", (message: Reply | { type: "notify"; channel: string; payload: string }) => {
      if ("type" in message) {
        for (const listener of this.listeners.values()) if (listener.channel === message.channel) listener.callback(message.payload);
        return;
      }
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.ok) waiting.resolve(message.value);
      else waiting.reject(toError(message.error));
    });
    const fail = (error: Error) => {
      const wasClosed = this.isClosed;
      this.isClosed = true;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
      if (!wasClosed) this.onFailure(error);
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the embedded database stopped (worker exit ${code})`)));
    // Stopped before it was adopted: told as if it had stopped now.
    if (early?.failure) fail(early.failure);
    return worker;
  }

  private async call<T>(message: Record<string, unknown>): Promise<T> {
    if (this.isClosed) throw new Error("PGlite is closed");
    return this.post<T>(await this.worker, message);
  }

  private post<T>(worker: Worker, message: Record<string, unknown>): Promise<T> {
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...message, id, ...(isYielding() ? { yields: true } : {}) });
    });
  }

  /** Runs one statement; the caller's type parsers run here on the text the worker leaves them as. */
  private async queryOn<T>(tx: number | undefined, text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    if (options?.serializers || options?.blob) throw new Error("serializers and blobs are not supported by the embedded database worker");
    const parsers = options?.parsers;
    const { parsers: _functions, ...rest } = options ?? {};
    void _functions;
    const sent = parsers ? { ...rest, rawTypes: Object.keys(parsers).map(Number) } : rest;
    const results = await this.call<Results<T>>({ op: "query", tx, text, params, options: sent });
    if (parsers) applyParsers(results, parsers, options?.rowMode === "array");
    return results;
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.queryOn<T>(undefined, text, params, options);
  }

  exec(text: string): Promise<Results[]> {
    return this.call<Results[]>({ op: "exec", text });
  }

  async transaction<T>(callback: (tx: EmbeddedTransaction) => Promise<T>): Promise<T> {
    const number = await this.call<number>({ op: "begin" });
    let open = true;
    const tx: EmbeddedTransaction = {
      query: <R>(text: string, params?: unknown[], options?: QueryOptions) => {
        if (!open) return Promise.reject(new Error("Transaction is closed"));
        return this.queryOn<R>(number, text, params, options);
      },
      exec: (text: string) => (open ? this.call<Results[]>({ op: "exec", tx: number, text }) : Promise.reject(new Error("Transaction is closed"))),
      get closed() {
        return !open;
      },
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      open = false;
      // Rolled back in the worker; the caller sees its own error.
      await this.call({ op: "end", tx: number, commit: false }).catch(() => {});
      throw error;
    }
    open = false;
    await this.call({ op: "end", tx: number, commit: true });
    return result;
  }

  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    const subscription = ++this.nextId;
    this.listeners.set(subscription, { channel, callback });
    await this.call({ op: "listen", channel, subscription });
    return async () => {
      this.listeners.delete(subscription);
      if (!this.isClosed) await this.call({ op: "unlisten", subscription });
    };
  }

  async dumpDataDir(compression: "auto" | "gzip" | "none" = "gzip"): Promise<File | Blob> {
    // Bytes cross the thread; the caller gets the Blob PGlite itself would give.
    const bytes = await this.call<Uint8Array<ArrayBuffer>>({ op: "dump", compression });
    return new Blob([bytes]);
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    try {
      await this.call({ op: "close" });
    } finally {
      this.isClosed = true;
      await (await this.worker).terminate();
    }
  }
}

function applyParsers(results: Results<unknown>, parsers: NonNullable<QueryOptions["parsers"]>, arrays: boolean) {
  results.fields.forEach((field, index) => {
    const parse = parsers[field.dataTypeID];
    if (!parse) return;
    for (const row of results.rows as Record<string | number, unknown>[]) {
      const key = arrays ? index : field.name;
      if (typeof row[key] === "string") row[key] = parse(row[key] as string);
    }
  });
}
