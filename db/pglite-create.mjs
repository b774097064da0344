// Creates an embedded database (PostgreSQL's initdb) in a data folder that has none, then exits:
// `node db/pglite-create.mjs <folder>`. Run as a process of its own by the server before it opens
// the folder: initdb needs several hundred MiB for a moment, which a process that stays up would
// keep (freed memory is not given back to the system), and this one returns it by ending.
import { newPglite } from "./pglite-engine.mjs";

const [dataDir] = process.argv.slice(2);
if (!dataDir) {
  console.error("usage: node db/pglite-create.mjs <data folder>");
  process.exit(2);
}
const database = newPglite(dataDir);
await database.waitReady;
await database.close();
