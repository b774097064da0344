import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockDataDir, newPglite, openPglite, openPostgres } from "@/db";
import { backupSocketPath, serveEmbeddedBackups, snapshotFromServer } from "@/db/backup";
import { type PostgresServer, postgresBinaries, startPostgresServer } from "@/tests/support/postgres-server";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

/** `npm run db:backup` / `db:restore` as an owner runs them: a separate process with its own environment. */
async function npmRun(script: "db:backup" | "db:restore", args: string[], env: Record<string, string | undefined>) {
  const clean = { ...process.env };
  for (const name of ["DATABASE_URL", "PGLITE_DIR", "TEST_DB", "TEST_DATABASE_URL"]) delete clean[name];
  try {
    const { stdout, stderr } = await run("npm", ["run", "--silent", script, "--", ...args], { cwd: root, env: { ...clean, AUTH_SECRET: "x".repeat(40), ...env } });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, out: (e.stdout ?? "") + (e.stderr ?? "") };
  }
}

let work: string;
beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), "chorus-backup-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the embedded database (PGLITE_DIR)", () => {
  it("is backed up by the server that owns it while it runs, restored into an empty folder, and the copy serves the same data", async () => {
    const dir = path.join(work, "live");
    mkdirSync(dir);
    // The server's side: the folder locked and open, the snapshot socket served.
    const release = lockDataDir(dir);
    const handle = openPglite(newPglite(dir));
    await handle.pglite!.exec("create table notes (id int primary key, body text)");
    await handle.pglite!.exec("insert into notes select i, 'note ' || i from generate_series(1, 500) i");
    const stop = await serveEmbeddedBackups(handle, dir);
    try {
      expect(statSync(path.dirname(backupSocketPath(dir)!)).mode & 0o777).toBe(0o700);
      // A write still open while the snapshot is taken is not in it; everything committed is.
      await handle.pglite!.exec("begin; insert into notes values (9999, 'uncommitted')");
      const file = path.join(work, "embedded.tar.gz");
      const backup = await npmRun("db:backup", ["--out", file], { PGLITE_DIR: dir });
      expect(backup.out).toContain("snapshot by the running server");
      expect(backup.code).toBe(0);
      await handle.pglite!.exec("rollback");
      // The server kept serving meanwhile.
      expect((await handle.pglite!.query<{ n: number }>("select count(*)::int as n from notes")).rows[0].n).toBe(500);

      const copy = path.join(work, "restored");
      const restore = await npmRun("db:restore", [file], { PGLITE_DIR: copy });
      expect(restore.code, restore.out).toBe(0);
      expect(existsSync(path.join(copy, "chorus.lock"))).toBe(false);
      const restored = newPglite(copy);
      const rows = (await restored.query<{ n: number; last: string }>("select count(*)::int as n, max(body) filter (where id = 500) as last from notes")).rows[0];
      await restored.close();
      expect(rows).toEqual({ n: 500, last: "note 500" });

      // Never over a database: a folder holding anything is refused and left as it was.
      const again = await npmRun("db:restore", [file], { PGLITE_DIR: copy });
      expect(again.code).toBe(1);
      expect(again.out).toMatch(/is not empty/);
      const stray = path.join(work, "stray");
      mkdirSync(stray);
      writeFileSync(path.join(stray, "notes.txt"), "mine");
      expect((await npmRun("db:restore", [file], { PGLITE_DIR: stray })).code).toBe(1);
    } finally {
      await stop();
      await handle.close();
      release();
    }
  }, 120_000);

  it("serves the snapshot of a data folder too deep for a socket beside it from a private folder with an unguessable name", async () => {
    const dir = path.join(work, "a-data-folder-nested-deep-enough-that-a-unix-socket-path-beside-it-would-be-too-long", "data");
    mkdirSync(dir, { recursive: true });
    // What another user of the machine could prepare: the folder name the old code would have used.
    const hash = createHash("sha256").update(path.resolve(dir)).digest("hex").slice(0, 16);
    const planted = path.join("/tmp", `chorus-backup-${hash}`);
    const release = lockDataDir(dir);
    const handle = openPglite(newPglite(dir));
    await handle.pglite!.exec("create table notes (id int primary key); insert into notes values (1)");
    const stop = await serveEmbeddedBackups(handle, dir);
    try {
      const socket = backupSocketPath(dir)!;
      expect(socket).toBeTruthy();
      expect(path.dirname(socket)).not.toBe(planted);
      expect(path.dirname(socket).startsWith(path.join(tmpdir(), "chorus-backup-"))).toBe(true);
      const folder = lstatSync(path.dirname(socket));
      expect(folder.isDirectory()).toBe(true);
      expect(folder.mode & 0o777).toBe(0o700);
      const snapshot = await snapshotFromServer(dir);
      expect(snapshot?.length).toBeGreaterThan(1_000);

      // A pointer to a folder others may enter is not trusted with the database's contents.
      const pointer = path.join(path.dirname(dir), ".data.backup-socket");
      const open = mkdtempSync(path.join(tmpdir(), "chorus-open-"));
      chmodSync(open, 0o755);
      const real = readFileSync(pointer, "utf8");
      writeFileSync(pointer, `${path.join(open, "socket")}\n`);
      expect(backupSocketPath(dir)).toBeNull();
      writeFileSync(pointer, real);
      rmSync(open, { recursive: true, force: true });
    } finally {
      await stop();
      await handle.close();
      release();
    }
    expect(existsSync(path.join(path.dirname(dir), ".data.backup-socket"))).toBe(false);
  }, 120_000);

  it("is backed up from the folder itself when no server runs, and a second backup while it is locked by another process is refused", async () => {
    const dir = path.join(work, "stopped");
    const pglite = newPglite(dir);
    await pglite.exec("create table t (x int); insert into t values (42)");
    await pglite.close();
    const file = path.join(work, "stopped.tar.gz");
    const backup = await npmRun("db:backup", ["--out", file], { PGLITE_DIR: dir });
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toContain("no server running");
    // A folder held by another process that serves no snapshot (an older server): refused, not opened twice.
    const release = lockDataDir(dir);
    try {
      const refused = await npmRun("db:backup", ["--out", path.join(work, "second.tar.gz")], { PGLITE_DIR: dir });
      expect(refused.code).toBe(1);
      expect(refused.out).toMatch(/in use by process/);
      expect(existsSync(path.join(work, "second.tar.gz"))).toBe(false);
    } finally {
      release();
    }
  }, 120_000);
});

describe.runIf(postgresBinaries())("PostgreSQL (DATABASE_URL)", () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgresServer();
  }, 120_000);
  afterAll(() => server?.destroy());

  it("is backed up with pg_dump and restored into an empty database, which serves the same data; a database holding tables is refused", async () => {
    const source = openPostgres(server.url, { max: 1 });
    await source.migrate();
    await source.sql!.unsafe("create table notes (id int primary key, body text); insert into notes select i, 'note ' || i from generate_series(1, 300) i");
    await source.close();

    const file = path.join(work, "postgres.dump");
    const backup = await npmRun("db:backup", ["--out", file], { DATABASE_URL: server.url });
    expect(backup.code, backup.out).toBe(0);

    const admin = postgres(server.url, { max: 1, onnotice: () => {} });
    await admin.unsafe("create database chorus_restored");
    await admin.end();
    const target = server.url.replace(/\/chorus$/, "/chorus_restored");
    const restore = await npmRun("db:restore", [file], { DATABASE_URL: target });
    expect(restore.code, restore.out).toBe(0);

    const copy = postgres(target, { max: 1, onnotice: () => {} });
    try {
      expect(await copy`select count(*)::int as n, max(body) filter (where id = 300) as last from notes`).toEqual([{ n: 300, last: "note 300" }]);
      const [{ migrations }] = await copy`select count(*)::int as migrations from drizzle.__drizzle_migrations`;
      expect(migrations).toBeGreaterThan(0);
    } finally {
      await copy.end();
    }
    const again = await npmRun("db:restore", [file], { DATABASE_URL: target });
    expect(again.code).toBe(1);
    expect(again.out).toMatch(/not empty/);
    // An embedded backup is not restored into PostgreSQL, nor the other way round.
    const wrong = path.join(work, "wrong.tar.gz");
    writeFileSync(wrong, Buffer.from([0x1f, 0x8b, 0, 0]));
    expect((await npmRun("db:restore", [wrong], { DATABASE_URL: target })).out).toMatch(/embedded database/);
  }, 180_000);
});
