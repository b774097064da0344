import { mkdirSync } from "node:fs";
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
import { takeEmbeddedEarly } from "./pglite-early.mjs";
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

export { DATA_DIR_LOCK, DataDirInUseError, lockDataDir } from "./data-dir-lock.mjs";
import { lockDataDir } from "./data-dir-lock.mjs";

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
  // Opened by the server script while Next.js loaded (db/pglite-early.mjs), its lock taken then.
  const early = takeEmbeddedEarly(absolute);
  if (!early) mkdirSync(absolute, { recursive: true });
  const release = early?.release ?? lockDataDir(absolute);
  const handle = openPglite(new WorkerPglite(absolute, databaseStopped, early));
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
