import { execFile } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { connect, createServer, type Server } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { DATA_DIR_LOCK, type DbHandle, lockDataDir, newPglite } from "./index";

/*
 * Backups. The embedded database (PGlite) has one owner: only the process that opened its data
 * folder may read it. A running server therefore makes the snapshot itself: it listens on a Unix
 * socket in a folder beside the data folder, readable by the data folder's owner only (mode 0700),
 * and answers every connection with a snapshot (PGlite's dumpDataDir, taken between two
 * statements: a crash-consistent image that PostgreSQL's recovery opens at the last commit).
 * No port, no token: whoever may read the data folder may read its backup, nobody else. When no
 * server runs, the backup opens the folder itself (taking its lock). With DATABASE_URL the
 * backup is pg_dump's (custom format) and the restore pg_restore's.
 */

const execFileAsync = promisify(execFile);

/** The longest Unix socket path Linux and macOS accept, less a margin. */
const MAX_SOCKET_PATH = 100;
// Snapshot frames: an 8-byte big-endian length, then that many bytes (a gzip tar), so that a
// snapshot cut short is known as such.
const HEADER_BYTES = 8;

/** The backup socket beside a data folder, never inside it (a snapshot would include it). */
const besideSocketPath = (absolute: string) => path.join(path.dirname(absolute), `.${path.basename(absolute)}.backup`, "socket");
/**
 * For a data folder too deep for a socket path beside it, the socket lives in a private folder
 * under the system's temporary folder, made with an unguessable name (mode 0700); this file
 * beside the data folder says where.
 */
const socketPointerPath = (absolute: string) => path.join(path.dirname(absolute), `.${path.basename(absolute)}.backup-socket`);

/** Whether a folder is this user's own, a real folder (not a link) nobody else may enter. */
function isPrivateFolder(folder: string): boolean {
  try {
    const stat = lstatSync(folder);
    return stat.isDirectory() && (stat.mode & 0o077) === 0 && (typeof process.getuid !== "function" || stat.uid === process.getuid());
  } catch {
    return false;
  }
}

/** Where the backup socket of a data folder is; null when a server on a deep folder has not said where. */
export function backupSocketPath(dataDir: string): string | null {
  const absolute = path.resolve(dataDir);
  const beside = besideSocketPath(absolute);
  if (beside.length <= MAX_SOCKET_PATH) return beside;
  let named: string;
  try {
    named = readFileSync(socketPointerPath(absolute), "utf8").trim();
  } catch {
    return null;
  }
  // Only a socket in a private folder is trusted with the database's contents.
  return path.isAbsolute(named) && isPrivateFolder(path.dirname(named)) ? named : null;
}

/** A gzip tar of the embedded database's data folder, taken between two statements. */
async function snapshotEmbedded(handle: DbHandle): Promise<Buffer> {
  if (!handle.pglite) throw new Error("Not an embedded database: back up PostgreSQL with pg_dump (npm run db:backup with DATABASE_URL set).");
  const blob = await handle.pglite.dumpDataDir("gzip");
  return Buffer.from(await blob.arrayBuffer());
}

/**
 * Serves snapshots of the embedded database on the backup socket of its data folder, one at a
 * time. Returns the function that stops serving.
 */
export async function serveEmbeddedBackups(handle: DbHandle, dataDir: string): Promise<() => Promise<void>> {
  const absolute = path.resolve(dataDir);
  let socketPath = besideSocketPath(absolute);
  let privateFolder: string | undefined;
  if (socketPath.length <= MAX_SOCKET_PATH) {
    const folder = path.dirname(socketPath);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    chmodSync(folder, 0o700);
  } else {
    // A new folder no one else can have prepared: mkdtemp makes it (mode 0700) under a random name.
    privateFolder = mkdtempSync(path.join(tmpdir(), "chorus-backup-"));
    chmodSync(privateFolder, 0o700);
    socketPath = path.join(privateFolder, "socket");
    writeWhole(socketPointerPath(absolute), Buffer.from(`${socketPath}\n`));
  }
  // A socket left by a process that died (this process holds the data folder's lock now).
  rmSync(socketPath, { force: true });
  let queue: Promise<void> = Promise.resolve();
  const server: Server = createServer((socket) => {
    socket.on("error", () => socket.destroy());
    queue = queue.then(async () => {
      try {
        const snapshot = await snapshotEmbedded(handle);
        const header = Buffer.alloc(HEADER_BYTES);
        header.writeBigUInt64BE(BigInt(snapshot.length));
        socket.write(header);
        await new Promise<void>((resolve) => socket.end(snapshot, resolve));
      } catch (error) {
        console.error(`backup: the snapshot failed (${error instanceof Error ? error.name : "error"})`);
        socket.destroy();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  server.on("error", (error) => console.error(`backup: socket error (${error.name})`));
  server.unref();
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      rmSync(socketPath, { force: true });
      if (privateFolder) {
        rmSync(privateFolder, { recursive: true, force: true });
        rmSync(socketPointerPath(absolute), { force: true });
      }
    });
}

/** Writes a file whole or not at all: a temporary file beside it, renamed into place. */
function writeWhole(file: string, bytes: Buffer) {
  const temp = `${file}.${process.pid}.partial`;
  writeFileSync(temp, bytes, { mode: 0o600 });
  renameSync(temp, file);
}

/** Asks the server running on a data folder for a snapshot; null when no server answers there. */
export async function snapshotFromServer(dataDir: string): Promise<Buffer | null> {
  const socketPath = backupSocketPath(dataDir);
  if (!socketPath || !existsSync(socketPath)) return null;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let connected = false;
    const socket = connect(socketPath, () => (connected = true));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      // A socket file nobody listens on: the server is not running.
      if (!connected && (error.code === "ECONNREFUSED" || error.code === "ENOENT")) resolve(null);
      else reject(new Error(`The server broke off the snapshot (${error.code ?? error.name}); try again.`));
    });
    socket.on("end", () => {
      const all = Buffer.concat(chunks);
      const length = all.length >= HEADER_BYTES ? Number(all.readBigUInt64BE(0)) : -1;
      if (length !== all.length - HEADER_BYTES) reject(new Error("The server's snapshot was cut short; try again (the server log may say why)."));
      else resolve(all.subarray(HEADER_BYTES));
    });
  });
}

/**
 * Backs up the embedded database into `out`: through the server running on the folder, or,
 * when none runs, by opening the folder (and holding its lock) meanwhile. Returns who made it.
 */
export async function backupEmbedded(dataDir: string, out: string): Promise<{ bytes: number; via: "server" | "folder" }> {
  const absolute = path.resolve(dataDir);
  if (!existsSync(path.join(absolute, "PG_VERSION"))) throw new Error(`No embedded database in ${absolute} (PGLITE_DIR).`);
  const viaServer = await snapshotFromServer(absolute);
  if (viaServer) {
    writeWhole(out, viaServer);
    return { bytes: viaServer.length, via: "server" };
  }
  const release = lockDataDir(absolute);
  try {
    const pglite = newPglite(absolute);
    try {
      // A dump asked for before the database has finished opening never settles (PGlite 0.5).
      await pglite.waitReady;
      const blob = await pglite.dumpDataDir("gzip");
      const bytes = Buffer.from(await blob.arrayBuffer());
      writeWhole(out, bytes);
      return { bytes: bytes.length, via: "folder" };
    } finally {
      await pglite.close();
    }
  } finally {
    release();
  }
}

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);
const PG_DUMP_MAGIC = Buffer.from("PGDMP");

/** Restores an embedded snapshot into a folder that is missing or empty; refuses any other. */
export async function restoreEmbedded(file: string, dataDir: string): Promise<void> {
  const absolute = path.resolve(dataDir);
  const bytes = readFileSync(file);
  if (!bytes.subarray(0, 2).equals(GZIP_MAGIC)) {
    throw new Error(
      bytes.subarray(0, 5).equals(PG_DUMP_MAGIC)
        ? `${file} is a PostgreSQL dump: restore it with DATABASE_URL set.`
        : `${file} is not a Chorus backup of the embedded database (a gzip tar made by npm run db:backup).`,
    );
  }
  if (existsSync(absolute) && readdirSync(absolute).length > 0) {
    throw new Error(`The data folder ${absolute} is not empty: restore into an empty or new folder (set PGLITE_DIR), never over a database.`);
  }
  mkdirSync(absolute, { recursive: true });
  const release = lockDataDir(absolute);
  try {
    const pglite = newPglite(absolute, { loadDataDir: new Blob([bytes], { type: "application/x-gzip" }) });
    // Opening it runs PostgreSQL's recovery to the snapshot's last commit; a read proves it usable.
    await pglite.query("select 1");
    await pglite.close();
  } catch (error) {
    rmSync(absolute, { recursive: true, force: true });
    throw error;
  } finally {
    release();
  }
  // The snapshot carries the lock of the process that made it: not this folder's owner.
  rmSync(path.join(absolute, DATA_DIR_LOCK), { force: true });
}

/**
 * The URL without its password, and the password for PGPASSWORD: a password on a command line
 * is visible to every user of the machine (ps).
 */
function connectionOf(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** pg_dump's words, without the connection string (which may carry a user or host name only). */
const toolError = (tool: string, error: unknown) => {
  const stderr = (error as { stderr?: string }).stderr?.trim().split("\n").slice(-3).join(" ") ?? "";
  return new Error(`${tool} failed${stderr ? `: ${stderr}` : ""}`);
};

/** Backs up a PostgreSQL database with pg_dump (custom format) into `out`. */
export async function backupPostgres(url: string, out: string): Promise<{ bytes: number }> {
  const { dbname, env } = connectionOf(url);
  const temp = `${out}.${process.pid}.partial`;
  try {
    await execFileAsync("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--file=${temp}`, `--dbname=${dbname}`], { env });
  } catch (error) {
    rmSync(temp, { force: true });
    throw toolError("pg_dump", error);
  }
  chmodSync(temp, 0o600);
  renameSync(temp, out);
  return { bytes: readFileSync(out).length };
}

/** Restores a pg_dump backup into an empty PostgreSQL database; refuses one that holds any table. */
export async function restorePostgres(url: string, file: string): Promise<void> {
  const head = readFileSync(file).subarray(0, 5);
  if (!head.equals(PG_DUMP_MAGIC)) {
    throw new Error(
      head.subarray(0, 2).equals(GZIP_MAGIC)
        ? `${file} is a backup of the embedded database: restore it without DATABASE_URL (into PGLITE_DIR).`
        : `${file} is not a PostgreSQL backup made by npm run db:backup.`,
    );
  }
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    const [{ tables }] = await sql<{ tables: number }[]>`
      select count(*)::int as tables from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`;
    if (tables > 0) throw new Error(`The database of DATABASE_URL is not empty (${tables} tables): restore into a new, empty database, never over one.`);
  } finally {
    await sql.end({ timeout: 5 });
  }
  const { dbname, env } = connectionOf(url);
  try {
    await execFileAsync("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", `--dbname=${dbname}`, file], { env });
  } catch (error) {
    throw toolError("pg_restore", error);
  }
}
