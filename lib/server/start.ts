import path from "node:path";
import { closeDb, getDbHandle } from "@/db";
import { serveEmbeddedBackups } from "@/db/backup";
import { isSetupDone } from "@/lib/accounts/setup";
import { getEnv, isEnvError } from "@/lib/platform/env";
import { startPresenceSharing } from "@/lib/events/presence";
import { startBackgroundWork, stopBackgroundWork } from "./background";
import { systemContext } from "./context";
import { offerEventStream } from "./event-stream";

// __chorusServing: set once started (migrated, background work running); until then the HTTP
// server (scripts/server.mjs) leaves /healthz to the app, which answers after start-up.
// On globalThis: the process starts once, though every entry point imports this module; Next.js
// bundles each route and action separately (and reloads modules in development), so a module-level
// value would exist once per bundle.
const holder = globalThis as unknown as { __chorusStarted?: boolean; __chorusServing?: boolean };

/** Runs once per server process: validate the environment, migrate, start background work. */
export async function startServer() {
  if (holder.__chorusStarted) return;
  holder.__chorusStarted = true;
  let env;
  try {
    env = getEnv();
  } catch (error) {
    if (isEnvError(error)) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  let handle;
  try {
    handle = getDbHandle();
  } catch (error) {
    // Another process owns the embedded database: one line naming the folder and its PID.
    if (error instanceof Error && error.name === "DataDirInUseError") {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  await handle.migrate();
  const database = handle.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite (${env.PGLITE_DIR})`;
  if (env.WEBHOOK_ALLOW_INSECURE_TARGETS) {
    console.warn(
      "WARNING: WEBHOOK_ALLOW_INSECURE_TARGETS=true — webhooks may target http:// and private or loopback addresses. Never use this in production.",
    );
  }
  if (env.JOBS_BACKEND === "inngest" && env.INNGEST_DEV) {
    console.warn(
      "WARNING: INNGEST_DEV is set — Inngest runs in dev mode and /api/inngest accepts unsigned calls. Use it only with the local Inngest dev server.",
    );
  }
  // The embedded database is backed up through its owner: this process (npm run db:backup).
  const dataDir = handle.pglite && !env.DATABASE_URL && !env.PGLITE_DIR.startsWith("memory://") ? path.resolve(/*turbopackIgnore: true*/ process.cwd(), env.PGLITE_DIR) : undefined;
  const stopServingBackups = dataDir
    ? await serveEmbeddedBackups(handle, dataDir).catch((error: unknown) => {
        console.warn(`backup: cannot serve snapshots (${error instanceof Error ? error.message : "error"}); npm run db:backup will need the server stopped`);
        return undefined;
      })
    : undefined;
  await startBackgroundWork();
  await startPresenceSharing(systemContext().db);
  const setupDone = await isSetupDone(systemContext().db);
  offerEventStream();
  holder.__chorusServing = true;
  console.log(`Chorus is running at ${env.APP_URL} on ${database}, jobs: ${env.JOBS_BACKEND}.`);
  if (!setupDone) console.log(`First run: open ${env.APP_URL}/setup to create your account and first administrator.`);

  const shutdown = async (signal: string) => {
    console.log(`${signal} received: finishing background work and closing the database.`);
    await stopBackgroundWork();
    await stopServingBackups?.();
    await closeDb();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
}
