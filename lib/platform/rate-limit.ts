import { once } from "node:events";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getEnv } from "@/lib/platform/env";

export type RateLimitState = { limit: number; remaining: number; resetSeconds: number; limited: boolean };

type Limiters = {
  perToken: RateLimiterAbstract;
  login: RateLimiterAbstract;
  /** Whether the shared store answers now ("not_configured" when counting in memory by design). */
  ping: () => Promise<"ok" | "error" | "not_configured">;
  close: () => Promise<void>;
};

// On globalThis: one set of counters (and one Redis connection) per process; Next.js bundles each
// route and action separately (and reloads modules in development), so a module-level value would
// exist once per bundle.
const holder = globalThis as unknown as { __chorusLimiters?: Promise<Limiters> };

/**
 * The longest any Redis command may take, in milliseconds. Past it (Redis stopped, the network
 * down, a reply lost at the moment it stops) the limiter counts in process memory instead, so
 * no request waits on Redis longer than this.
 */
const REDIS_COMMAND_TIMEOUT_MS = 100;
/** How long the first request of a process waits for the first connection to Redis. */
const REDIS_FIRST_CONNECTION_WAIT_MS = 500;

async function createLimiters(): Promise<Limiters> {
  const env = getEnv();
  const perToken = { keyPrefix: "rl:token", points: env.RATE_LIMIT_PER_MINUTE, duration: 60 };
  const login = { keyPrefix: "rl:login", points: 10, duration: 60 };
  if (env.REDIS_URL) {
    // Loaded only when configured, so the embedded setup needs no Redis client.
    const { Redis } = await import("ioredis");
    // No offline queue: while Redis is not connected a command fails at once (and is counted in
    // memory) rather than waiting for a connection; a sent command gives up after the timeout.
    const client = new Redis(env.REDIS_URL, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      connectTimeout: 1000,
    });
    // One line when Redis goes away and one when it is back, not one per reconnection attempt.
    let reachable = true;
    client.on("error", (error) => {
      if (!reachable) return;
      reachable = false;
      console.warn(`rate limits: Redis unavailable (${error.message}); counting in memory until it answers`);
    });
    client.on("ready", () => {
      if (!reachable) console.warn("rate limits: Redis reachable again; counting in Redis");
      reachable = true;
    });
    // The first requests wait briefly for the first connection (once per process), so that a
    // Redis that is up counts them; one that is slow to answer or refuses is not waited for.
    await Promise.race([once(client, "ready").catch(() => undefined), new Promise((resolve) => setTimeout(resolve, REDIS_FIRST_CONNECTION_WAIT_MS))]);
    // A command that timed out means a Redis that no longer answers on an open connection (stopped,
    // paused, the network gone): the connection is dropped and made again, and until it is ready
    // every command goes straight to memory instead of each waiting out its own timeout.
    const watched = new Proxy(client, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== "function" || property === "constructor") return value;
        return (...args: unknown[]) => {
          const result = (value as (...a: unknown[]) => unknown).apply(target, args);
          if (result instanceof Promise) {
            result.catch((error: unknown) => {
              if (error instanceof Error && /timed out/i.test(error.message) && target.status === "ready") target.disconnect(true);
            });
          }
          return result;
        };
      },
    });
    // Counting in process memory while Redis is unreachable keeps the API answering.
    const redisOptions = { storeClient: watched, rejectIfRedisNotReady: true };
    return {
      perToken: new RateLimiterRedis({ ...redisOptions, insuranceLimiter: new RateLimiterMemory(perToken), ...perToken }),
      login: new RateLimiterRedis({ ...redisOptions, insuranceLimiter: new RateLimiterMemory(login), ...login }),
      ping: async () => {
        if (client.status !== "ready") return "error";
        return client.ping().then(
          () => "ok" as const,
          () => "error" as const,
        );
      },
      close: async () => {
        await client.quit().catch(() => client.disconnect());
      },
    };
  }
  return { perToken: new RateLimiterMemory(perToken), login: new RateLimiterMemory(login), ping: async () => "not_configured", close: async () => {} };
}

function limiters(): Promise<Limiters> {
  holder.__chorusLimiters ??= createLimiters();
  return holder.__chorusLimiters;
}

/** Whether the rate-limit store answers (readiness): "not_configured" without REDIS_URL. */
export async function pingRateLimitStore() {
  return (await limiters()).ping();
}

/** Forgets the counters' store (tests change the limits) and closes its Redis connection. */
export async function resetRateLimiters() {
  const current = holder.__chorusLimiters;
  holder.__chorusLimiters = undefined;
  await (await current)?.close();
}

/** The budget a limiter answer leaves (none yet spent when there is no answer for the key). */
function budgetLeft(limiter: RateLimiterAbstract, res: RateLimiterRes | null): RateLimitState {
  if (!res) return { limit: limiter.points, remaining: limiter.points, resetSeconds: 0, limited: false };
  return {
    limit: limiter.points,
    remaining: Math.min(limiter.points, Math.max(0, res.remainingPoints)),
    resetSeconds: Math.max(0, Math.ceil(res.msBeforeNext / 1000)),
    limited: false,
  };
}

async function consume(limiter: RateLimiterAbstract, key: string): Promise<RateLimitState> {
  try {
    return budgetLeft(limiter, await limiter.consume(key));
  } catch (error) {
    if (error instanceof RateLimiterRes) {
      return {
        limit: limiter.points,
        remaining: 0,
        resetSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)),
        limited: true,
      };
    }
    throw error;
  }
}

/** One request against the per-token (or per-address, before sign-in) budget. */
export async function consumeRequest(key: string) {
  return consume((await limiters()).perToken, key);
}

/**
 * The key of an email's sign-in budget: NFKC-normalised, trimmed and lower-cased, so
 * " Carol@…", "carol@…" and a full-width "ｃarol@…" all spend the same budget.
 */
function loginEmailKey(email: string): string {
  return `email:${email.normalize("NFKC").trim().toLowerCase()}`;
}

/** One sign-in attempt; counted per address and per email so neither can be brute-forced. */
export async function consumeLoginAttempt({ ip, email }: { ip: string; email: string }) {
  const { login } = await limiters();
  const [byIp, byEmail] = await Promise.all([
    consume(login, `ip:${ip}`),
    consume(login, loginEmailKey(email)),
  ]);
  return byIp.limited || byIp.remaining < byEmail.remaining ? byIp : byEmail;
}

/** The sign-in budget left for an address, without spending any. */
export async function peekLoginBudget(ip: string): Promise<RateLimitState> {
  const { login } = await limiters();
  return budgetLeft(login, await login.get(`ip:${ip}`));
}

/**
 * A successful sign-in is not an attack: it gives back its point, so only failed attempts
 * add up toward the limit (a team signing in from one office address is never locked out).
 * Returns the budget left afterwards (the address's, as the email's starts over), or
 * undefined when the store could not say.
 */
export async function forgiveLoginAttempt({ ip, email }: { ip: string; email: string }): Promise<RateLimitState | undefined> {
  const { login } = await limiters();
  try {
    const [byIp] = await Promise.all([login.reward(`ip:${ip}`, 1), login.delete(loginEmailKey(email))]);
    return budgetLeft(login, byIp);
  } catch {
    return undefined;
  }
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(state.limit),
    "RateLimit-Remaining": String(state.remaining),
    "RateLimit-Reset": String(state.resetSeconds),
  };
  if (state.limited) headers["Retry-After"] = String(state.resetSeconds);
  return headers;
}
