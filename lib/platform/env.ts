import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/** true/1 or false/0; unset or empty is `fallback`. */
const flag = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", ""])
    .default("")
    .transform((v) => (v === "" ? fallback : v === "true" || v === "1"));
const bool = flag(false);

const intIn = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

const optionalUrl = z
  .string()
  .url()
  .optional()
  .or(z.literal("").transform(() => undefined));

const optionalText = z
  .string()
  .min(1)
  .optional()
  .or(z.literal("").transform(() => undefined));

const envSchema = z.object({
  NODE_ENV: z.string().default("development"),
  PORT: intIn(1, 65535, 3000),
  // Unset: http://localhost:<PORT> (so `PORT=8080 npm start` prints and links the right address).
  APP_URL: z.string().url().optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  PGLITE_DIR: z.string().min(1).default("./.data/pglite"),
  // The embedded server's stand-in for autovacuum (db/embedded-maintenance.ts); on by default.
  PGLITE_AUTOVACUUM: flag(true),
  AUTH_SECRET: z
    .string()
    .min(32, "must be at least 32 characters")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  JOBS_BACKEND: z.enum(["local", "inngest"]).default("local"),
  JOBS_POLL_MS: intIn(10, 60_000, 500),
  PRESENCE_GRACE_MS: intIn(0, 600_000, 30_000),
  INNGEST_EVENT_KEY: optionalText,
  INNGEST_SIGNING_KEY: optionalText,
  INNGEST_BASE_URL: optionalUrl,
  // The Inngest SDK's own switch for the local dev server: "1"/"true" (or the dev server's URL)
  // turns dev mode on, which sends events without a key and accepts unsigned calls.
  INNGEST_DEV: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const text = value?.trim().toLowerCase() ?? "";
      if (text === "" || text === "0" || text === "false") return false;
      if (text === "1" || text === "true" || /^https?:\/\/\S+$/.test(text)) return true;
      ctx.addIssue({ code: "custom", message: "must be 1, true, 0, false or the dev server's http(s) URL" });
      return z.NEVER;
    }),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default("60,300,900,3600")
    .transform((value, ctx) => {
      const parts = value.split(",").map((p) => Number(p.trim()));
      if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n) || n < 0)) {
        ctx.addIssue({ code: "custom", message: "must be 4 comma-separated non-negative numbers of seconds" });
        return z.NEVER;
      }
      return parts;
    }),
  WEBHOOK_TIMEOUT_MS: intIn(100, 120_000, 30_000),
  WEBHOOK_ALLOW_INSECURE_TARGETS: bool,
  RATE_LIMIT_PER_MINUTE: intIn(1, 1_000_000, 600),
  // How many reverse proxies stand in front of the server (each appends to X-Forwarded-For).
  TRUSTED_PROXIES: intIn(0, 16, 0),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  // Invitations are emailed through this SMTP server (smtp:// or smtps://); unset, the admin copies the link.
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/\S+$/, "must be an smtp:// or smtps:// URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  SMTP_FROM: optionalText,
  // An OpenAI-compatible chat-completions server for polishing and the answer assistant (the
  // POLISH_LLM_* names are the older spelling and still work when these are unset).
  LLM_BASE_URL: optionalUrl,
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  POLISH_LLM_BASE_URL: optionalUrl,
  POLISH_LLM_API_KEY: z.string().optional(),
  POLISH_LLM_MODEL: z.string().optional(),
  // Guided sign-up with the network (Settings → Number → "Connect with the network").
  NETWORK_APP_ID: optionalText,
  NETWORK_CONFIG_ID: optionalText,
  NETWORK_APP_SECRET: optionalText,
  NETWORK_API_BASE_URL: optionalUrl,
  // Web Push (VAPID, RFC 8292): base64url keys as `web-push generate-vapid-keys` prints them.
  // Unset: generated once into ./.data (embedded database) or derived from AUTH_SECRET (server database).
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, "must be a base64url P-256 public key (87 characters)")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, "must be a base64url P-256 private key (43 characters)")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  // Who push services may contact about this server: a mailto: or https: URL.
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, "must be a mailto: or https: URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
});

export type Env = Omit<z.infer<typeof envSchema>, "AUTH_SECRET" | "APP_URL"> & { AUTH_SECRET: string; APP_URL: string };

export class EnvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EnvError";
  }
}

/**
 * True for the error a bad environment value raises. Matched by name, not `instanceof`: a
 * production build can hold two copies of this module (one per bundle).
 */
export const isEnvError = (error: unknown): error is Error =>
  error instanceof Error && error.name === "EnvError" && error.message.startsWith("Invalid environment variable ");

let cached: Env | undefined;

/** Where the embedded database and the generated secret live. */
export const dataDir = path.resolve(/*turbopackIgnore: true*/ process.cwd(), ".data");

function loadOrCreateAuthSecret(): string {
  const file = path.join(dataDir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret + "\n", { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new EnvError(`Invalid environment variable ${String(issue.path[0])}: ${issue.message}`);
  }
  const env = result.data;
  let secret = env.AUTH_SECRET;
  if (!secret) {
    if (env.DATABASE_URL) {
      throw new EnvError(
        "Invalid environment variable AUTH_SECRET: required when DATABASE_URL is set (at least 32 characters)",
      );
    }
    secret = loadOrCreateAuthSecret();
  }
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
    throw new EnvError(`Invalid environment variable ${env.VAPID_PUBLIC_KEY ? "VAPID_PRIVATE_KEY" : "VAPID_PUBLIC_KEY"}: set both VAPID keys or neither`);
  }
  if (env.JOBS_BACKEND === "inngest" && !env.INNGEST_DEV) {
    // Without the signing key /api/inngest could not tell Inngest's calls from anyone else's.
    for (const name of ["INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY"] as const) {
      if (!env[name]) {
        throw new EnvError(
          `Invalid environment variable ${name}: required when JOBS_BACKEND=inngest (set INNGEST_DEV=1 only for the local Inngest dev server)`,
        );
      }
    }
  }
  return { ...env, AUTH_SECRET: secret, APP_URL: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "") };
}

/** The parsed environment, read once per process. */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Tests change variables between cases; this forgets the parsed copy. */
export function resetEnvCache() {
  cached = undefined;
}

export const isBuildPhase = () => process.env.NEXT_PHASE === "phase-production-build";
