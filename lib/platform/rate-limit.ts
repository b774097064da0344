import { once } from "node:events";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getEnv } from "@/lib/platform/env";

export type RateLimitState = { limit: number; remaining: number; resetSeconds: number; limited: boolean };

type Limiters = { perToken: RateLimiterAbstract; login: RateLimiterAbstract; close: () => Promise<void> };

const holder = globalThis as unknown as { __chorusLimiters?: Promise<Limiters> };

async function createLimiters(): Promise<Limiters> {
  const env = getEnv();
  const perToken = { keyPrefix: "rl:token", points: env.RATE_LIMIT_PER_MINUTE, duration: 60 };
  const login = { keyPrefix: "rl:login", points: 10, duration: 60 };
  if (env.REDIS_URL) {
    // Loaded only when configured, so the embedded setup needs no Redis client.
    const { Redis } = await import("ioredis");
    const client = new Redis(env.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    client.on("error", (error) => console.warn(`rate limits: Redis unavailable (${error.message}); counting in memory meanwhile`));
    // Without an offline queue, commands before the first connection would all fall back to memory.
    // A refused first connection is not fatal: the limiters count in memory until Redis answers.
    await Promise.race([once(client, "ready").catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2000))]);
    // Counting in process memory while Redis is unreachable keeps the API answering.
    return {
      perToken: new RateLimiterRedis({ storeClient: client, insuranceLimiter: new RateLimiterMemory(perToken), ...perToken }),
      login: new RateLimiterRedis({ storeClient: client, insuranceLimiter: new RateLimiterMemory(login), ...login }),
      close: async () => {
        await client.quit().catch(() => client.disconnect());
      },
    };
  }
  return { perToken: new RateLimiterMemory(perToken), login: new RateLimiterMemory(login), close: async () => {} };
}

function limiters(): Promise<Limiters> {
  holder.__chorusLimiters ??= createLimiters();
  return holder.__chorusLimiters;
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
export function loginEmailKey(email: string): string {
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
