// A separate server process for the crash test: it opens the database named by the
// environment (PGLITE_DIR or DATABASE_URL), runs every due job once, and is meant to be
// killed with SIGKILL in the middle of a webhook attempt.
import { systemContext } from "@/lib/server/context";
import { jobRegistry } from "@/lib/server/job-registry";
import { drainJobs } from "@/lib/jobs/runner";

async function main() {
  const ran = await drainJobs(systemContext(), jobRegistry, { maxRounds: 1 });
  console.log(`worker ran ${ran} job(s)`);
  process.exit(0);
}

void main();
