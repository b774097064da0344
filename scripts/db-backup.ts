// `npm run db:backup -- --out FILE`: a consistent snapshot of the database into FILE (written
// whole or not at all). The embedded database (PGLITE_DIR) is snapshotted by the server running
// on it, or opened directly when none runs; with DATABASE_URL, pg_dump makes it.
import path from "node:path";
import { backupEmbedded, backupPostgres } from "@/db/backup";
import { getEnv } from "@/lib/platform/env";

const args = process.argv.slice(2);
const at = args.indexOf("--out");
const out = at >= 0 ? args[at + 1] : args.find((a) => a.startsWith("--out="))?.slice("--out=".length);
if (!out || args.length !== (at >= 0 ? 2 : 1)) {
  console.error("Usage: npm run db:backup -- --out FILE");
  process.exit(2);
}
try {
  const env = getEnv();
  const started = Date.now();
  if (env.DATABASE_URL) {
    const { bytes } = await backupPostgres(env.DATABASE_URL, out);
    console.log(`Backed up PostgreSQL (pg_dump, custom format) to ${out}: ${bytes} bytes in ${Date.now() - started} ms.`);
  } else {
    if (env.PGLITE_DIR.startsWith("memory://")) throw new Error("PGLITE_DIR is an in-memory database: nothing to back up.");
    const dir = path.resolve(env.PGLITE_DIR);
    const { bytes, via } = await backupEmbedded(dir, out);
    console.log(`Backed up the embedded database ${dir} (${via === "server" ? "snapshot by the running server" : "no server running"}) to ${out}: ${bytes} bytes in ${Date.now() - started} ms.`);
  }
} catch (error) {
  console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
