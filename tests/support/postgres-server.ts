import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/** The directory of Debian's PostgreSQL server binaries (initdb, pg_ctl), or undefined when not installed. */
export function postgresBinaries(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, "bin", "pg_ctl")) && existsSync(path.join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], "bin") : undefined;
}

/** A loopback port nothing listens on now (the kernel picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export type PostgresServer = {
  /** postgres://… of the database `chorus` on it. */
  url: string;
  port: number;
  start: () => Promise<void>;
  /** A fast shutdown: open connections are closed at once, as in a restart or a crash of the host. */
  stop: () => Promise<void>;
  /** Stops it and deletes its data. */
  destroy: () => void;
};

/**
 * A throwaway PostgreSQL server on its own loopback port and data folder, started and stopped
 * by the test (outages, backups). The server refuses to run as root: as root it runs as the
 * `postgres` system user.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = postgresBinaries();
  if (!bin) throw new Error("PostgreSQL server binaries are not installed");
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "chorus-pg-"));
  chmodSync(dir, 0o777);
  const data = path.join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", path.join(bin, command), ...args], { stdio: "pipe", cwd: dir })
      : execFileSync(path.join(bin, command), args, { stdio: "pipe", cwd: dir });
  run("initdb", ["-D", data, "-U", "chorus", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  // Without blocking this process: a test or benchmark keeps sending requests meanwhile.
  const runAsync = async (command: string, args: string[]) => {
    await (asRoot
      ? promisify(execFile)("runuser", ["-u", "postgres", "--", path.join(bin, command), ...args], { cwd: dir })
      : promisify(execFile)(path.join(bin, command), args, { cwd: dir }));
  };
  const startArgs = ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "-t", "60", "start"];
  const stopArgs = ["-D", data, "-m", "fast", "-w", "stop"];
  run("pg_ctl", startArgs);
  run("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "chorus", "chorus"]);
  return {
    url: `postgres://chorus@127.0.0.1:${port}/chorus`,
    port,
    start: () => runAsync("pg_ctl", startArgs),
    stop: () => runAsync("pg_ctl", stopArgs),
    destroy: () => {
      try {
        run("pg_ctl", stopArgs);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
