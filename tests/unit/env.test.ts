import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "@/lib/env";

const base = { AUTH_SECRET: "x".repeat(40) };

describe("environment", () => {
  it("applies the documented defaults", () => {
    const env = parseEnv(base);
    expect(env).toMatchObject({
      PORT: 3000,
      APP_URL: "http://localhost:3000",
      PGLITE_DIR: "./.data/pglite",
      JOBS_BACKEND: "local",
      JOBS_POLL_MS: 500,
      WEBHOOK_RETRY_SCHEDULE: [60, 300, 900, 3600],
      WEBHOOK_TIMEOUT_MS: 30000,
      WEBHOOK_ALLOW_INSECURE_TARGETS: false,
      RATE_LIMIT_PER_MINUTE: 600,
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.REDIS_URL).toBeUndefined();
  });

  it.each([
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["APP_URL", "not a url"],
    ["DATABASE_URL", "mysql://x"],
    ["JOBS_BACKEND", "cron"],
    ["JOBS_POLL_MS", "-1"],
    ["WEBHOOK_RETRY_SCHEDULE", "1,2,three,4"],
    ["WEBHOOK_RETRY_SCHEDULE", "1,2,3"],
    ["WEBHOOK_TIMEOUT_MS", "0"],
    ["WEBHOOK_ALLOW_INSECURE_TARGETS", "yes"],
    ["RATE_LIMIT_PER_MINUTE", "0"],
    ["REDIS_URL", "http://cache"],
    ["AUTH_SECRET", "short"],
  ])("stops with one line naming %s=%s", (name, value) => {
    let message = "";
    try {
      parseEnv({ ...base, [name]: value });
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      message = (error as Error).message;
    }
    expect(message).toContain(name);
    expect(message.split("\n")).toHaveLength(1);
  });

  it("derives APP_URL from PORT when unset, and keeps a given one", () => {
    expect(parseEnv({ ...base, PORT: "8080" }).APP_URL).toBe("http://localhost:8080");
    expect(parseEnv({ ...base, PORT: "8080", APP_URL: "https://inbox.example.com/" }).APP_URL).toBe("https://inbox.example.com");
  });

  it("requires AUTH_SECRET with DATABASE_URL", () => {
    expect(() => parseEnv({ DATABASE_URL: "postgres://u:p@127.0.0.1/db" })).toThrow(/AUTH_SECRET/);
  });

  it("reads a shortened retry schedule", () => {
    expect(parseEnv({ ...base, WEBHOOK_RETRY_SCHEDULE: "1, 2,3,4" }).WEBHOOK_RETRY_SCHEDULE).toEqual([1, 2, 3, 4]);
  });
});
