import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { getEnv } from "@/lib/platform/env";
import { newPglite, withPreparedStatements } from "./pglite-engine.mjs";
import { type EmbeddedDatabase, WorkerPglite } from "./pglite-client";
import { withPreparedStatements as withPreparedPostgresStatements } from "./postgres-statements";
import * as schema from "./schema";

type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything a query can run on: the database or an open transaction. */
export type Executor = Db | Tx;

export type DbHandle = {
  db: Db;
  kind: "pglite" | "postgres";
  migrate: () => Promise<void>;
  close: () => Promise<void>;
  /** The embedded database (PGlite in this thread, or the worker thread that owns it), for LISTEN and maintenance. */
  pglite?: EmbeddedDatabase;
  /**
   * Embedded database in a worker only: roughly how long a statement sent now would wait
   * (milliseconds), read without waiting on the database; the server sheds load above a limit.
   */
  queueWaitMs?: () => number;
  /** The raw postgres.js client (server only), for LISTEN/NOTIFY. */
  sql?: postgres.Sql;
};

const migrationsFolder = path.join(/*turbopackIgnore: true*/ process.cwd(), "db", "migrations");

// Drizzle's migrator holds no lock; several server processes starting at once on
// PostgreSQL serialise on this advisory lock instead.
const MIGRATION_LOCK = 72_531_001;

export { newPglite };
export { notYielding, yieldingToOthers } from "./priority";

/**
 * An embedded database opened in this thread (tests and benchmarks), or run by a worker thread
 * (the server: its statements never hold up the thread that answers requests).
 */
export function openPglite(pglite: PGlite | WorkerPglite): DbHandle {
  const inWorker = pglite instanceof WorkerPglite;
  // The worker prepares its statements itself.
  const client = inWorker ? pglite : withPreparedStatements(pglite);
  const db = drizzlePglite(client as unknown as PGlite, { schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    pglite,
    ...(inWorker ? { queueWaitMs: () => pglite.queueWaitMs() } : {}),
    migrate: async () => {
      await migratePglite(db as never, { migrationsFolder });
    },
    close: async () => {
      if (!pglite.closed) await pglite.close();
    },
  };
}

/**
 * How long a new connection to PostgreSQL may take, in seconds: a server that is down or
 * unreachable fails the request within it (a 503 the client may retry) instead of leaving it
 * waiting for the driver's default of 30 s.
 */
const POSTGRES_CONNECT_TIMEOUT_S = 1;

/**
 * Seconds before a new connection is tried after connections failed, by failures in a row. The
 * driver's default grows to 20 s, and a request arriving meanwhile waits that long before its
 * connection is even tried: during an outage it is tried at once (refused in a moment: a 503),
 * and when the database is back the next request reconnects without waiting.
 */
const reconnectDelay = (failures: number) => Math.min(0.01 * failures, 0.1);

export function openPostgres(url: string, options: { max?: number } = {}): DbHandle {
  const sql = postgres(url, { max: options.max ?? 10, onnotice: () => {}, connect_timeout: POSTGRES_CONNECT_TIMEOUT_S, backoff: reconnectDelay });
  const db = drizzlePostgres(withPreparedPostgresStatements(sql), { schema }) as unknown as Db;
  return {
    db,
    kind: "postgres",
    sql,
    migrate: async () => {
      const lockClient = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await lockClient`select pg_advisory_lock(${MIGRATION_LOCK})`;
        await migratePostgres(drizzlePostgres(lockClient), { migrationsFolder });
        await lockClient`select pg_advisory_unlock(${MIGRATION_LOCK})`;
      } finally {
        await lockClient.end();
      }
    },
    close: async () => {
      await sql.end({ timeout: 5 });
    },
  };
}

/** A second process on a data directory another one holds (PGlite has one owner). */
export class DataDirInUseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DataDirInUseError";
  }
}

export const DATA_DIR_LOCK = "chorus.lock";

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** When a process started (Linux: field 22 of /proc/<pid>/stat), to tell a reused PID apart; "" where unknown. */
function processStart(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "";
  } catch {
    return "";
  }
}

const readLock = (file: string): string | null => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
};

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** How long a lock that cannot be read (empty, unreadable, malformed) is waited for before it counts as held. */
const UNREADABLE_LOCK_WAIT_MS = 2_000;

/**
 * Makes this process the one owner of an embedded data directory: a lock file inside it holds
 * the owner's PID and start time, written whole to a temporary file and linked into place (the
 * link fails if a lock exists, so nobody ever sees a half-written lock). A lock whose process is
 * no longer running (a crash, a killed process), or whose PID now belongs to a process started
 * at another time, is stale and taken over; one held by a live process, or one that cannot be
 * read, is a `DataDirInUseError` naming the folder (and the PID). The lock goes when this
 * process exits. Returns the release function.
 */
export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, DATA_DIR_LOCK);
  const stamp = `${process.pid}\n${processStart(process.pid)}\n`;
  const unique = () => `${file}.${process.pid}.${randomBytes(6).toString("hex")}`;
  const deadline = Date.now() + UNREADABLE_LOCK_WAIT_MS;
  for (;;) {
    const temp = unique();
    writeFileSync(temp, stamp, { flag: "wx" });
    try {
      linkSync(temp, file);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      unlinkSync(temp);
    }
    const seen = readLock(file);
    if (seen === null) continue; // removed meanwhile: try again
    const [pidText = "", start = ""] = seen.split("\n");
    const holder = /^[1-9][0-9]*$/.test(pidText.trim()) ? Number(pidText) : NaN;
    if (!Number.isSafeInteger(holder)) {
      // Not a lock this code writes whole: someone may be writing it. Held, unless it stays so.
      if (Date.now() < deadline) {
        pause(50);
        continue;
      }
      throw new DataDirInUseError(
        `The data directory ${dir} is locked by ${file}, which cannot be read: make sure no other process uses the folder, then delete that file.`,
      );
    }
    const sameProcess = (pid: number) => isAlive(pid) && (start.trim() === "" || processStart(pid) === "" || processStart(pid) === start.trim());
    if (holder !== process.pid && sameProcess(holder)) {
      throw new DataDirInUseError(
        `The data directory ${dir} is in use by process ${holder}: stop that process first, or set PGLITE_DIR to another folder (one process per data directory).`,
      );
    }
    // Stale (its process is gone) or this process's own: moved aside, unless another process
    // replaced it in the meantime (then it is put back), and tried again.
    const grave = unique();
    try {
      renameSync(file, grave);
    } catch {
      continue; // removed meanwhile
    }
    if (readLock(grave) !== seen) {
      try {
        linkSync(grave, file);
      } catch {
        // a third process holds it now
      }
    }
    unlinkSync(grave);
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.removeListener("exit", release);
    try {
      if (readFileSync(file, "utf8") === stamp) unlinkSync(file);
    } catch {
      // already gone
    }
  };
  process.on("exit", release);
  return release;
}

/**
 * The worker owning the embedded database ended on its own (out of memory, a crash of the
 * engine): nothing can be served, so the process stops and its supervisor starts it again;
 * every acknowledged write is on disk and every job due runs after the restart.
 */
function databaseStopped(error: Error) {
  console.error(`The embedded database stopped (${error.message}): Chorus exits so that it can be started again.`);
  process.exit(1);
}

/** The database of the environment: PostgreSQL with DATABASE_URL, else PGlite in a worker thread. */
function openFromEnv(): DbHandle {
  const env = getEnv();
  if (env.DATABASE_URL) return openPostgres(env.DATABASE_URL);
  const dir = env.PGLITE_DIR;
  if (dir.startsWith("memory://")) return openPglite(new WorkerPglite(dir, databaseStopped));
  const absolute = path.resolve(/*turbopackIgnore: true*/ process.cwd(), dir);
  mkdirSync(absolute, { recursive: true });
  const release = lockDataDir(absolute);
  const handle = openPglite(new WorkerPglite(absolute, databaseStopped));
  const close = handle.close;
  return {
    ...handle,
    close: async () => {
      try {
        await close();
      } finally {
        release();
      }
    },
  };
}

// One handle per process, kept on globalThis so dev hot reload does not open a
// second PGlite on the same data directory.
const holder = globalThis as unknown as { __chorusDb?: DbHandle };

/** The process's database, opened on first use (never at import, so `next build` stays offline). */
export function getDbHandle(): DbHandle {
  holder.__chorusDb ??= openFromEnv();
  return holder.__chorusDb;
}

export function getDb(): Db {
  return getDbHandle().db;
}

/** Tests install their own database (a per-file PGlite copy or a PostgreSQL database). */
export function setDbHandle(handle: DbHandle | undefined) {
  holder.__chorusDb = handle;
}

export async function closeDb() {
  const handle = holder.__chorusDb;
  holder.__chorusDb = undefined;
  await handle?.close();
}

/** The rows of a raw `execute()`, whichever driver ran it (PGlite answers `{rows}`, postgres.js an array). */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
}

/** A timestamptz from a raw query: a Date (PGlite) or text such as "2026-11-22 10:15:30.123+00" (postgres.js). */
export function toDate(value: Date | string): Date {
  if (value instanceof Date) return value;
  return new Date(value.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00"));
}
