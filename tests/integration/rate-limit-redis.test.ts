import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { connect, createServer } from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as verify from "@/app/v1/auth/verify/route";
import { consumeRequest, resetRateLimiters } from "@/lib/platform/rate-limit";
import { resetEnvCache } from "@/lib/platform/env";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";

const REDIS_SERVER = "/usr/bin/redis-server";

/** A loopback port nothing listens on now (the kernel picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.destroy();
      resolve(true);
    }).on("error", () => resolve(false));
    setTimeout(() => {
      socket.destroy();
      resolve(false);
    }, 500).unref();
  });
}
let server: ChildProcess | undefined;
let url = "";

// .ci/run installs Debian's redis-server; the suite starts its own on a loopback port.
describe.runIf(existsSync(REDIS_SERVER))("rate limits on Redis (REDIS_URL)", () => {
  beforeAll(async () => {
    const port = await freePort();
    server = spawn(REDIS_SERVER, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    url = `redis://127.0.0.1:${port}`;
    // A busy machine can take seconds to start it: wait up to 30 s for the port to accept.
    for (let i = 0; i < 300 && !(await accepts(port)); i++) await new Promise((r) => setTimeout(r, 100));
    process.env.REDIS_URL = url;
    process.env.RATE_LIMIT_PER_MINUTE = "2";
    resetEnvCache();
    await resetRateLimiters();
  });

  afterAll(async () => {
    delete process.env.REDIS_URL;
    delete process.env.RATE_LIMIT_PER_MINUTE;
    resetEnvCache();
    await resetRateLimiters();
    server?.kill();
  });

  it("counts per token in Redis, shared by every server process", async () => {
    const { adminToken } = await createTestAccount();
    expect((await call(verify.GET, { path: "/v1/auth/verify", token: adminToken })).status).toBe(200);
    // A new limiter (another process) sees the same counter.
    await resetRateLimiters();
    const second = await call(verify.GET, { path: "/v1/auth/verify", token: adminToken });
    expect(second.status).toBe(200);
    expect(second.headers.get("ratelimit-remaining")).toBe("0");
    const third = await call(verify.GET, { path: "/v1/auth/verify", token: adminToken });
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    const client = new Redis(url);
    const keys = await client.keys("rl:token:*");
    await client.quit();
    expect(keys.length).toBe(1);
  });

  it("keeps answering, counting in memory, when Redis refuses connections from the start", async () => {
    process.env.REDIS_URL = `redis://127.0.0.1:${await freePort()}`;
    resetEnvCache();
    await resetRateLimiters();
    try {
      const { adminToken } = await createTestAccount();
      const first = await call(verify.GET, { path: "/v1/auth/verify", token: adminToken });
      expect(first.status).toBe(200);
      expect(first.headers.get("ratelimit-remaining")).toBe("1");
      expect((await call(verify.GET, { path: "/v1/auth/verify", token: adminToken })).status).toBe(200);
      expect((await call(verify.GET, { path: "/v1/auth/verify", token: adminToken })).status).toBe(429);
    } finally {
      process.env.REDIS_URL = url;
      resetEnvCache();
      await resetRateLimiters();
    }
  });
});

describe.runIf(existsSync(REDIS_SERVER))("rate limits when Redis stops while requests arrive", () => {
  let own: ChildProcess | undefined;
  afterAll(async () => {
    delete process.env.REDIS_URL;
    resetEnvCache();
    await resetRateLimiters();
    own?.kill("SIGKILL");
  });

  it("gives every Redis command 100 ms at most: no request is slow or fails at the switch, and counting goes on in memory", async () => {
    const port = await freePort();
    own = spawn(REDIS_SERVER, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    for (let i = 0; i < 300 && !(await accepts(port)); i++) await new Promise((r) => setTimeout(r, 100));
    process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
    resetEnvCache();
    await resetRateLimiters();
    const { adminToken } = await createTestAccount();
    const request = async () => {
      const started = performance.now();
      const res = await call(verify.GET, { path: "/v1/auth/verify", token: adminToken });
      return { status: res.status, ms: performance.now() - started };
    };
    expect((await request()).status).toBe(200);
    // Stopped without a goodbye (SIGSTOP: the connection stays open but nothing answers), then
    // killed: the two ways a Redis goes away.
    own.kill("SIGSTOP");
    const seen: { status: number; ms: number }[] = [];
    const counting: number[] = [];
    const count = async () => {
      const started = performance.now();
      await consumeRequest("token:outage-check");
      counting.push(performance.now() - started);
    };
    for (let i = 0; i < 10; i++) {
      await count();
      seen.push(await request());
    }
    own.kill("SIGKILL");
    await new Promise((r) => setTimeout(r, 50));
    for (let i = 0; i < 10; i++) {
      await count();
      seen.push(await request());
    }
    expect(seen.map((s) => s.status).filter((s) => s !== 200 && s !== 429)).toEqual([]);
    // Counting gives up on Redis within its 100 ms; the whole request (token check included) stays quick.
    expect(Math.max(...counting)).toBeLessThan(150);
    expect(Math.max(...seen.map((s) => s.ms))).toBeLessThan(500);
    // The budget (600 a minute by default) is still counted, in memory.
    const last = await call(verify.GET, { path: "/v1/auth/verify", token: adminToken });
    expect(Number(last.headers.get("ratelimit-remaining"))).toBeLessThan(Number(last.headers.get("ratelimit-limit")));
  });
});
