import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DbHandle, notYielding, openPglite, rowsOf, yieldingToOthers } from "@/db";
import { WorkerPglite } from "@/db/pglite-client";
import { accounts } from "@/db/schema";

// The server's embedded database runs in a worker thread: the ORM, the migrator, transactions,
// errors and LISTEN behave as with PGlite in this thread, and this thread stays free meanwhile.
let handle: DbHandle;
let worker: WorkerPglite;
const dir = mkdtempSync(path.join(tmpdir(), "chorus-worker-"));

beforeAll(async () => {
  worker = new WorkerPglite(path.join(dir, "data"));
  handle = openPglite(worker);
  await handle.migrate();
}, 120_000);
afterAll(async () => {
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
});

const account = (id: string) => ({ id, name: `Account ${id}` });

// A busy machine takes seconds to open an embedded database.
describe("the embedded database in a worker thread", { timeout: 60_000 }, () => {
  it("runs the ORM's statements with the same types as in-thread (dates, JSON, counts)", async () => {
    const [row] = await handle.db.insert(accounts).values(account("acc_w1")).returning();
    expect(row.createdAt).toBeInstanceOf(Date);
    const [read] = await handle.db.select().from(accounts).where(eq(accounts.id, "acc_w1"));
    expect(read).toEqual(row);
    const raw = rowsOf<{ n: number; j: unknown }>(await handle.db.execute(sql`select 2::int as n, '{"a":[1]}'::jsonb as j`));
    expect(raw).toEqual([{ n: 2, j: { a: [1] } }]);
  });

  it("commits a transaction's writes together and rolls all of them back when its callback throws", async () => {
    await handle.db.transaction(async (tx) => {
      await tx.insert(accounts).values(account("acc_w2"));
      await tx.insert(accounts).values(account("acc_w3"));
    });
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.insert(accounts).values(account("acc_w4"));
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    const ids = (await handle.db.select({ id: accounts.id }).from(accounts)).map((r) => r.id).sort();
    expect(ids).toEqual(["acc_w1", "acc_w2", "acc_w3"]);
  });

  it("holds the database for an interactive transaction: a statement from outside waits for its commit", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const transaction = handle.db.transaction(async (tx) => {
      await tx.insert(accounts).values(account("acc_w5"));
      await held;
      order.push("commit");
    });
    await new Promise((r) => setTimeout(r, 50));
    const outside = handle.db
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.id, "acc_w5"))
      .then((rows) => {
        order.push("outside");
        return rows;
      });
    await new Promise((r) => setTimeout(r, 100));
    expect(order).toEqual([]);
    release();
    await transaction;
    expect(await outside).toEqual([{ id: "acc_w5" }]);
    expect(order).toEqual(["commit", "outside"]);
  });

  it("reports PostgreSQL errors with their code and constraint, and keeps serving", async () => {
    const failure = await handle.db
      .insert(accounts)
      .values(account("acc_w1"))
      .then(() => null, (error: unknown) => error as { cause?: { code?: string; constraint?: string } });
    expect(failure?.cause?.code).toBe("23505");
    expect(failure?.cause?.constraint).toBe("accounts_pkey");
    expect(await handle.db.$count(accounts)).toBe(4);
  });

  it("delivers NOTIFY to listeners after the commit", async () => {
    const seen: string[] = [];
    const unlisten = await worker.listen("chorus_test", (payload) => seen.push(payload));
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_notify('chorus_test', 'hello')`);
    });
    await expect.poll(() => seen).toEqual(["hello"]);
    await unlisten();
  });

  it("runs a statement ahead of those of bulk work that yields (an agent's send never waits behind a campaign's)", async () => {
    const order: string[] = [];
    // A campaign's sending: many statements waiting at once.
    const bulk = yieldingToOthers(() =>
      Promise.all(Array.from({ length: 20 }, (_, i) => handle.db.execute(sql`select pg_sleep(0.05)`).then(() => order.push(`bulk ${i}`)))),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    // An agent's statement sent after them: it runs as soon as the one running ends.
    await handle.db.execute(sql`select 1`).then(() => order.push("agent"));
    const agentAt = order.indexOf("agent");
    await bulk;
    expect(agentAt).toBeLessThanOrEqual(3);
    // Work that yields still runs, in its own order, once nothing else waits.
    expect(order.filter((o) => o !== "agent")).toEqual(Array.from({ length: 20 }, (_, i) => `bulk ${i}`));
    // Bulk work's own statements that must not wait (recording what the network answered) do not yield.
    const late: string[] = [];
    await yieldingToOthers(async () => {
      const more = Promise.all(Array.from({ length: 10 }, () => handle.db.execute(sql`select pg_sleep(0.05)`).then(() => late.push("bulk"))));
      await new Promise((resolve) => setTimeout(resolve, 20));
      await notYielding(async () => handle.db.execute(sql`select 1`)).then(() => late.push("record"));
      await more;
    });
    expect(late.indexOf("record")).toBeLessThanOrEqual(3);
    // A transaction of bulk work yields at its BEGIN too, and behaves as any other once begun.
    await yieldingToOthers(() => handle.db.transaction(async (tx) => tx.insert(accounts).values(account("acc_w9"))));
    expect(await handle.db.select().from(accounts).where(eq(accounts.id, "acc_w9"))).toHaveLength(1);
  });

  it("keeps this thread free during a long statement and counts it as queued work", async () => {
    // The ORM's query runs once it is awaited: `then` sends it now.
    const slow = handle.db.execute(sql`select pg_sleep(3)`).then(() => {});
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(Date.now()), 50);
    // The running statement counts from its start.
    await expect.poll(() => worker.queueWaitMs(), { timeout: 2_500, interval: 50 }).toBeGreaterThan(500);
    await slow;
    clearInterval(timer);
    // The event loop kept turning (about 20 ticks a second) while the statement ran.
    expect(ticks.length).toBeGreaterThan(20);
    // The worker clears its counters just after it answers: the queue empties, nothing counts.
    await expect.poll(() => worker.queueWaitMs(), { timeout: 1_000, interval: 20 }).toBe(0);
  });
});
