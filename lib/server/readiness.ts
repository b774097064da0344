import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/db";
import { pingRateLimitStore } from "@/lib/platform/rate-limit";
import type { Readiness } from "./schemas";

/** The longest the readiness probe waits for the database, so that a probe never hangs. */
const DATABASE_PROBE_MS = 1_500;

function within<T>(ms: number, work: Promise<T>, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  return Promise.race([work.catch(() => fallback), late]).finally(() => clearTimeout(timer));
}

/**
 * Readiness, for load balancers: the database answers a trivial statement and, when REDIS_URL
 * is set, Redis answers a PING. Liveness (`/healthz`) checks neither: a server whose database is
 * down is alive and waits for it, it is only not ready.
 */
export async function checkReadiness(): Promise<Readiness> {
  const [database, redis] = await Promise.all([
    within(
      DATABASE_PROBE_MS,
      Promise.resolve()
        .then(() => getDb().execute(sql`select 1`))
        .then(() => "ok" as const),
      "error" as const,
    ),
    within(DATABASE_PROBE_MS, pingRateLimitStore(), "error" as const),
  ]);
  const ready = database === "ok" && redis !== "error";
  return { status: ready ? "ready" : "unavailable", checks: { database, redis } };
}
