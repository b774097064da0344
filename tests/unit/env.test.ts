import { describe, expect, it } from "vitest";
import { inngestClientOptions } from "@/inngest/client";
import { EnvError, parseEnv } from "@/lib/platform/env";

const base = { AUTH_SECRET: "x".repeat(40) };

describe("environment", () => {
  it("applies the documented defaults", () => {
    const env = parseEnv(base);
    expect(env).toMatchObject({
      PORT: 3000,
      APP_URL: "http://localhost:3000",
      PGLITE_DIR: "./.data/pglite",
      PGLITE_AUTOVACUUM: true,
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

  it("turns the embedded database's vacuuming off only when asked", () => {
    expect(parseEnv({ ...base, PGLITE_AUTOVACUUM: "false" }).PGLITE_AUTOVACUUM).toBe(false);
    expect(parseEnv({ ...base, PGLITE_AUTOVACUUM: "0" }).PGLITE_AUTOVACUUM).toBe(false);
    expect(parseEnv({ ...base, PGLITE_AUTOVACUUM: "" }).PGLITE_AUTOVACUUM).toBe(true);
    expect(parseEnv({ ...base, PGLITE_AUTOVACUUM: "true" }).PGLITE_AUTOVACUUM).toBe(true);
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
    ["PGLITE_AUTOVACUUM", "off"],
    ["RATE_LIMIT_PER_MINUTE", "0"],
    ["REDIS_URL", "http://cache"],
    ["AUTH_SECRET", "short"],
    ["INNGEST_DEV", "yes"],
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

  describe("with JOBS_BACKEND=inngest", () => {
    const inngest = { ...base, JOBS_BACKEND: "inngest" };
    const keys = { INNGEST_EVENT_KEY: "event-key", INNGEST_SIGNING_KEY: "signkey-prod-0123456789abcdef" };

    it.each([
      ["INNGEST_EVENT_KEY", {}],
      ["INNGEST_EVENT_KEY", { INNGEST_EVENT_KEY: "", INNGEST_SIGNING_KEY: keys.INNGEST_SIGNING_KEY }],
      ["INNGEST_SIGNING_KEY", { INNGEST_EVENT_KEY: keys.INNGEST_EVENT_KEY }],
      ["INNGEST_SIGNING_KEY", { INNGEST_EVENT_KEY: keys.INNGEST_EVENT_KEY, INNGEST_BASE_URL: "http://127.0.0.1:8288" }],
      ["INNGEST_SIGNING_KEY", { INNGEST_EVENT_KEY: keys.INNGEST_EVENT_KEY, INNGEST_DEV: "0" }],
    ])("stops with one line naming %s when it is missing", (name, vars) => {
      let message = "";
      try {
        parseEnv({ ...inngest, ...vars });
      } catch (error) {
        expect(error).toBeInstanceOf(EnvError);
        message = (error as Error).message;
      }
      expect(message).toContain(name);
      expect(message.split("\n")).toHaveLength(1);
    });

    it("starts with both keys, in cloud mode", () => {
      const env = parseEnv({ ...inngest, ...keys, INNGEST_BASE_URL: "http://127.0.0.1:8288" });
      expect(env.INNGEST_DEV).toBe(false);
      expect(inngestClientOptions(env)).toEqual({
        isDev: false,
        eventKey: keys.INNGEST_EVENT_KEY,
        signingKey: keys.INNGEST_SIGNING_KEY,
        baseUrl: "http://127.0.0.1:8288",
      });
    });

    it.each(["1", "true", "http://127.0.0.1:8288"])("needs no keys with INNGEST_DEV=%s, in dev mode", (value) => {
      const env = parseEnv({ ...inngest, INNGEST_DEV: value });
      expect(env.INNGEST_DEV).toBe(true);
      expect(inngestClientOptions(env).isDev).toBe(true);
    });
  });

  it("never turns dev mode on from INNGEST_BASE_URL alone", () => {
    const env = parseEnv({ ...base, INNGEST_BASE_URL: "http://127.0.0.1:8288" });
    expect(inngestClientOptions(env)).toEqual({ isDev: false, baseUrl: "http://127.0.0.1:8288" });
  });
});
