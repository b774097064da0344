import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DATA_DIR_LOCK, newPglite } from "@/db";
import { openEmbeddedEarly, takeEmbeddedEarly } from "@/db/pglite-early.mjs";
import { WorkerPglite } from "@/db/pglite-client";

// A restart opens the embedded database while Next.js loads: the server script starts the
// database's worker (with the data directory's lock) before it imports Next.js, and the app's
// handle adopts that worker. What the app then sees must be the database of the folder it was
// configured with, owned by this process alone.

let withDatabase: string;
const dirs: string[] = [];
const children: ReturnType<typeof spawn>[] = [];
const folder = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "chorus-early-"));
  dirs.push(dir);
  return dir;
};
const lockOwner = (dir: string) => readFileSync(path.join(dir, DATA_DIR_LOCK), "utf8").split("\n")[0];

beforeAll(async () => {
  withDatabase = folder();
  const pglite = newPglite(withDatabase);
  await pglite.exec("create table early_marker (note text); insert into early_marker values ('this folder')");
  await pglite.close();
}, 60_000);
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("the embedded database opened before Next.js loads", () => {
  it("is the configured folder's database, adopted by the app's handle with its lock", async () => {
    expect(openEmbeddedEarly(withDatabase)).toBe(true);
    // Taken before anything else could open the folder.
    expect(lockOwner(withDatabase)).toBe(String(process.pid));
    // Started once per process.
    expect(openEmbeddedEarly(withDatabase)).toBe(false);

    const early = takeEmbeddedEarly(withDatabase);
    expect(early).toBeDefined();
    expect(takeEmbeddedEarly(withDatabase)).toBeUndefined();
    const failures: Error[] = [];
    const db = new WorkerPglite(withDatabase, (error) => failures.push(error), early);
    const { rows } = await db.query<{ note: string }>("select note from early_marker");
    expect(rows).toEqual([{ note: "this folder" }]);
    expect(db.queueWaitMs()).toBeGreaterThanOrEqual(0);
    await db.close();
    early!.release();
    expect(existsSync(path.join(withDatabase, DATA_DIR_LOCK))).toBe(false);
    expect(failures).toEqual([]);
  }, 60_000);

  it("leaves a folder without a database, or one another process owns, to the app", () => {
    const empty = folder();
    expect(openEmbeddedEarly(empty)).toBe(false);
    expect(existsSync(path.join(empty, DATA_DIR_LOCK))).toBe(false);

    const owner = spawn("sleep", ["60"], { stdio: "ignore" });
    children.push(owner);
    writeFileSync(path.join(withDatabase, DATA_DIR_LOCK), `${owner.pid}\n`);
    expect(openEmbeddedEarly(withDatabase)).toBe(false);
    // The owner's lock is untouched; the app's own attempt names it.
    expect(lockOwner(withDatabase)).toBe(String(owner.pid));
    rmSync(path.join(withDatabase, DATA_DIR_LOCK));
  });

  it("is let go when the app is configured with another folder", async () => {
    const other = folder();
    expect(openEmbeddedEarly(withDatabase)).toBe(true);
    expect(takeEmbeddedEarly(other)).toBeUndefined();
    // Stopped, and the folder's lock released once it has.
    for (let i = 0; i < 100 && existsSync(path.join(withDatabase, DATA_DIR_LOCK)); i++) await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(path.join(withDatabase, DATA_DIR_LOCK))).toBe(false);
  });
});
