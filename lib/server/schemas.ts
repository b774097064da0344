import { z } from "zod";

const check = z.enum(["ok", "degraded", "error"]);

/** `GET /v1/health` */
export const healthOutput = z.object({
  status: z.enum(["ok", "degraded"]),
  version: z.string().meta({ example: "0.1.0" }),
  time: z.string().meta({ format: "date-time", example: "2026-11-22T10:15:30.123Z" }),
  checks: z.object({
    database: z.object({ status: z.enum(["ok", "error"]), latency_ms: z.int().min(0) }),
    jobs: z.object({
      status: check,
      backend: z.enum(["local", "inngest"]),
      due: z.int().min(0).meta({ description: "Background jobs of your account due now." }),
      oldest_due_age_s: z.int().min(0).meta({ description: "Seconds the oldest due job of your account has waited." }),
    }),
  }),
});

/** `GET /readyz`: whether this instance can serve requests now (its database and, when configured, Redis answer). */
export type Readiness = {
  status: "ready" | "unavailable";
  checks: { database: "ok" | "error"; redis: "ok" | "error" | "not_configured" };
};

/** `GET /api/version`: the release this server runs. */
export const versionOutput = z.object({ version: z.string().meta({ example: "0.1.0" }) });
