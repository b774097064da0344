import { createServer, type Server, type Socket } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as conversationsRoute from "@/app/v1/conversations/route";
import * as webhookRoute from "@/app/api/network/webhook/route";
import * as healthzRoute from "@/app/healthz/route";
import * as readyzRoute from "@/app/readyz/route";
import { type DbHandle, getDb, getDbHandle, openPostgres, setDbHandle } from "@/db";
import { isDatabaseUnavailable } from "@/lib/platform/errors";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { runAction } from "@/lib/server/action";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";
import { type PostgresServer, postgresBinaries, startPostgresServer } from "@/tests/support/postgres-server";

const timed = async <T>(work: () => Promise<T>) => {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
};

// A notification naming a number: receiving it needs the database.
const notification = JSON.stringify({
  object: "whatsapp_business_account",
  entry: [{ id: "102290129340398", changes: [{ field: "messages", value: { messaging_product: "whatsapp", metadata: { display_phone_number: "14155552671", phone_number_id: "206540352249999" }, statuses: [{ id: "wamid.X", status: "delivered", timestamp: "1795636000", recipient_id: "14155550100" }] } }] }],
});

describe("a database that accepts connections but never answers", () => {
  let silent: Server;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    // The file's own embedded database opens in the background; its start-up work would be timed too.
    await getDb().execute(sql`select 1`);
    silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it("fails the query within 2 s as unavailable, not after the driver's 30 s", async () => {
    const address = silent.address() as { port: number };
    const handle = openPostgres(`postgres://chorus@127.0.0.1:${address.port}/chorus`, { max: 1 });
    try {
      const { result: error, ms } = await timed(() => handle.db.execute(sql`select 1`).then(() => undefined, (e: unknown) => e));
      expect(error).toBeDefined();
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(ms).toBeLessThan(2_000);
    } finally {
      await handle.sql?.end({ timeout: 0 });
    }
  });
});

// Debian's postgresql package provides the server; without it there is nothing to stop.
describe.runIf(postgresBinaries())("PostgreSQL stopped and started again (DATABASE_URL)", () => {
  let server: PostgresServer;
  let handle: DbHandle;
  let previous: DbHandle;
  let token = "";

  beforeAll(async () => {
    server = await startPostgresServer();
    previous = getDbHandle();
    handle = openPostgres(server.url, { max: 4 });
    await handle.migrate();
    setDbHandle(handle);
    await resetRateLimiters();
    token = (await createTestAccount()).adminToken;
  }, 120_000);

  afterAll(async () => {
    setDbHandle(previous);
    await handle?.sql?.end({ timeout: 0 });
    server?.destroy();
  });

  const listConversations = () => call(conversationsRoute.GET, { path: "/v1/conversations", token });

  it("answers 503 service_unavailable with Retry-After within 2 s while it is down, and recovers once it is back", async () => {
    expect((await listConversations()).status).toBe(200);
    expect((await call(readyzRoute.GET as never, { path: "/readyz" })).status).toBe(200);

    // Transactions cut off by the stop: their rollback goes nowhere, without wedging the
    // connections they held (each is used again once the database is back).
    const cutOff = Array.from({ length: 4 }, () =>
      getDb()
        .transaction(async (tx) => {
          await tx.execute(sql`select pg_sleep(5)`);
        })
        .then(() => "committed", (error: unknown) => (isDatabaseUnavailable(error) ? "unavailable" : "other")),
    );
    await new Promise((r) => setTimeout(r, 200));
    await server.stop();
    expect(await Promise.all(cutOff)).toEqual(["unavailable", "unavailable", "unavailable", "unavailable"]);

    // Every request, the first after the stop (its pooled connection just closed) included.
    for (let i = 0; i < 3; i++) {
      const { result, ms } = await timed(listConversations);
      expect(result.status).toBe(503);
      expect(result.body.error.code).toBe("service_unavailable");
      expect(Number(result.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(result.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/i);
      expect(ms).toBeLessThan(2_000);
    }

    // The network's webhook: a 503 makes the network deliver the notification again later.
    const hook = await timed(() => call(webhookRoute.POST, { method: "POST", path: "/api/network/webhook", rawBody: notification, headers: { "content-type": "application/json", "x-hub-signature-256": "sha256=00" } }));
    expect(hook.result.status).toBe(503);
    expect(hook.result.headers.get("retry-after")).toBeTruthy();
    expect(hook.ms).toBeLessThan(2_000);

    // A form's server action says so in words, with the same status.
    const action = await timed(() => runAction(() => getDb().execute(sql`select 1`)));
    expect(action.result).toMatchObject({ ok: false, status: 503, code: "service_unavailable" });
    expect(action.ms).toBeLessThan(2_000);

    // Liveness stays up; readiness says the instance cannot serve.
    expect((await call(healthzRoute.GET as never, { path: "/healthz" })).status).toBe(200);
    const ready = await timed(() => call(readyzRoute.GET as never, { path: "/readyz" }));
    expect(ready.result.status).toBe(503);
    expect(ready.result.body).toEqual({ status: "unavailable", checks: { database: "error", redis: "not_configured" } });
    expect(ready.result.headers.get("retry-after")).toBeTruthy();
    expect(ready.ms).toBeLessThan(2_000);

    await server.start();
    const back = performance.now();
    let recovered = await listConversations();
    for (let i = 0; i < 50 && recovered.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      recovered = await listConversations();
    }
    expect(recovered.status).toBe(200);
    // Every connection of the pool serves again at once: none waits out a backoff or a dead write.
    const together = await timed(() => Promise.all(Array.from({ length: 8 }, () => listConversations())));
    expect(together.result.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(performance.now() - back).toBeLessThan(5_000);
    expect((await call(readyzRoute.GET as never, { path: "/readyz" })).status).toBe(200);
  }, 60_000);
});
