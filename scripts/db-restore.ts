// `npm run db:restore -- FILE`: restores a backup made by `npm run db:backup` into an empty
// database: the embedded one into PGLITE_DIR (missing or empty), or with DATABASE_URL into that
// (empty) PostgreSQL database. A folder or database holding anything is refused, never overwritten.
import path from "node:path";
import { restoreEmbedded, restorePostgres } from "@/db/backup";
import { getEnv } from "@/lib/platform/env";

const args = process.argv.slice(2);
if (args.length !== 1 || args[0].startsWith("-")) {
  console.error("Usage: npm run db:restore -- FILE");
  process.exit(2);
}
const file = args[0];
try {
  const env = getEnv();
  if (env.DATABASE_URL) {
    await restorePostgres(env.DATABASE_URL, file);
    console.log(`Restored ${file} into the PostgreSQL database of DATABASE_URL. Start the server as usual (migrations newer than the backup run at start).`);
  } else {
    if (env.PGLITE_DIR.startsWith("memory://")) throw new Error("PGLITE_DIR is an in-memory database: set it to the folder to restore into.");
    const dir = path.resolve(env.PGLITE_DIR);
    await restoreEmbedded(file, dir);
    console.log(`Restored ${file} into ${dir}. Start the server with PGLITE_DIR=${env.PGLITE_DIR}.`);
  }
} catch (error) {
  console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
