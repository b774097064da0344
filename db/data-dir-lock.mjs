// The one-owner lock of an embedded data directory, in plain JavaScript: the server script
// (scripts/server.mjs) takes it before Next.js loads, to open the database meanwhile
// (db/pglite-early.mjs); the app takes it through db/index.ts otherwise.
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";

/** A second process on a data directory another one holds (PGlite has one owner). */
export class DataDirInUseError extends Error {
  constructor(message) {
    super(message);
    this.name = "DataDirInUseError";
  }
}

export const DATA_DIR_LOCK = "chorus.lock";

const isAlive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return error.code === "EPERM";
  }
};

/** When a process started (Linux: field 22 of /proc/<pid>/stat), to tell a reused PID apart; "" where unknown. */
function processStart(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "";
  } catch {
    return "";
  }
}

const readLock = (file) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
};

const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

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
export function lockDataDir(dir) {
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
      if (error.code !== "EEXIST") throw error;
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
    const sameProcess = (pid) => isAlive(pid) && (start.trim() === "" || processStart(pid) === "" || processStart(pid) === start.trim());
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
