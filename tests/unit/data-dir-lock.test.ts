import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DATA_DIR_LOCK, DataDirInUseError, lockDataDir } from "@/db";

// The embedded database's lock on its data directory, as two processes meet it on one folder.

const dirs: string[] = [];
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const folder = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "chorus-lock-"));
  dirs.push(dir);
  return dir;
};
/** A live process that is not this one. */
const otherProcess = () => {
  const child = spawn("sleep", ["60"], { stdio: "ignore" });
  children.push(child);
  return child.pid!;
};
const startOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
};

describe("one process per data directory", () => {
  it("a lock whose owner has not written it yet is held, not stale: the owner's PID is named once it appears", async () => {
    const dir = folder();
    const file = path.join(dir, DATA_DIR_LOCK);
    const owner = otherProcess();
    // The other process has created its lock but not written its PID yet; it does 300 ms later.
    writeFileSync(file, "");
    const writer = spawn(process.execPath, ["-e", `console.log("ready"); setTimeout(() => require("fs").writeFileSync(${JSON.stringify(file)}, "${owner}\\n"), 300)`]);
    children.push(writer);
    await new Promise((resolve) => writer.stdout!.once("data", resolve));
    const error = catchError(() => lockDataDir(dir));
    expect(error).toBeInstanceOf(DataDirInUseError);
    expect((error as Error).message).toContain(`process ${owner}`);
    expect(readFileSync(file, "utf8")).toBe(`${owner}\n`);
  });

  it("a lock that stays unreadable is held: the folder is named and the lock kept", () => {
    const dir = folder();
    writeFileSync(path.join(dir, DATA_DIR_LOCK), "");
    const error = catchError(() => lockDataDir(dir));
    expect(error).toBeInstanceOf(DataDirInUseError);
    expect((error as Error).message).toContain(dir);
    expect(readFileSync(path.join(dir, DATA_DIR_LOCK), "utf8")).toBe("");
  });

  it("a live owner keeps it; a dead one's, or one whose PID now belongs to a process started at another time, is taken over", () => {
    const dir = folder();
    const file = path.join(dir, DATA_DIR_LOCK);
    const owner = otherProcess();
    writeFileSync(file, `${owner}\n${startOf(owner)}\n`);
    expect(catchError(() => lockDataDir(dir))).toBeInstanceOf(DataDirInUseError);

    // The same PID, but the process holding it started at another time: the PID was reused.
    writeFileSync(file, `${owner}\n${Number(startOf(owner)) - 1}\n`);
    const release = lockDataDir(dir);
    expect(readFileSync(file, "utf8")).toBe(`${process.pid}\n${startOf(process.pid)}\n`);
    release();
    expect(readdirSync(dir)).toEqual([]);

    // A PID no process has.
    writeFileSync(file, "4194303\n");
    const again = lockDataDir(dir);
    expect(readFileSync(file, "utf8").split("\n")[0]).toBe(String(process.pid));
    again();
    expect(readdirSync(dir)).toEqual([]);
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}
