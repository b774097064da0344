import { closeDb, DataDirInUseError, getDbHandle } from "@/db";
import { EnvError } from "@/lib/platform/env";

try {
  const handle = getDbHandle();
  await handle.migrate();
  console.log(`Migrations applied (${handle.kind}).`);
  await closeDb();
} catch (error) {
  console.error(error instanceof EnvError || error instanceof DataDirInUseError ? error.message : error);
  process.exit(1);
}
