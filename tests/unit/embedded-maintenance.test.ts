import { PGlite } from "@electric-sql/pglite";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { maintainEmbeddedDatabase, startEmbeddedMaintenance } from "@/db/embedded-maintenance";

let db: PGlite;

beforeEach(async () => {
  db = new PGlite();
  await db.exec(`create table busy (id serial primary key, status text not null);
    create index on busy (status);
    create table quiet (id serial primary key);
    create table "odd ""name""" (id serial primary key, n int not null);
    insert into busy (status) select 'pending' from generate_series(1, 2000);
    insert into quiet select from generate_series(1, 10);`);
});
afterEach(async () => {
  if (!db.closed) await db.close();
});

/** The statistics counters reach the shared view at most once a second: this makes them current. */
async function flushCounters() {
  await db.query("select pg_stat_force_next_flush()");
  await db.query("select 1");
}

const tableState = async () =>
  (
    await db.query<{ relname: string; vacuumed: string | null; analyzed: string | null; reltuples: number }>(
      `select s.relname, s.last_vacuum::text as vacuumed, s.last_analyze::text as analyzed, c.reltuples
       from pg_stat_user_tables s join pg_class c on c.oid = s.relid order by s.relname`,
    )
  ).rows;

describe("maintenance of the embedded database (it has no autovacuum)", () => {
  it("does every table never vacuumed nor analyzed in its first round, except an empty one", async () => {
    await flushCounters();
    // Never analyzed: the planner has no row count at all.
    expect((await tableState()).map((t) => t.reltuples)).toEqual([-1, -1, -1]);
    const run = await maintainEmbeddedDatabase(db);
    expect(run).toMatchObject({ vacuumed: ["busy", "quiet"], analyzed: ["busy", "quiet"], failed: [] });
    expect((await tableState()).map((t) => [t.relname, t.reltuples, t.vacuumed !== null, t.analyzed !== null])).toEqual([
      ["busy", 2000, true, true],
      ['odd "name"', -1, false, false],
      ["quiet", 10, true, true],
    ]);
    await flushCounters();
    expect(await maintainEmbeddedDatabase(db)).toMatchObject({ vacuumed: [], analyzed: [] });
  });

  it("leaves an empty table to the planner's guess, so that a plan made while it is empty still looks rows up by key", async () => {
    await maintainEmbeddedDatabase(db);
    // A plan made while the table is empty, kept as it grows (no analyze in between).
    await db.exec(`set plan_cache_mode = force_generic_plan;
      prepare by_key(int) as select * from "odd ""name""" where id = $1;`);
    const plan = async () => (await db.query<{ "QUERY PLAN": string }>("explain execute by_key(1)")).rows.map((r) => r["QUERY PLAN"]).join("\n");
    expect(await plan()).toMatch(/Index Scan/);
    await db.exec(`insert into "odd ""name""" (n) select 1 from generate_series(1, 5000)`);
    expect(await plan()).toMatch(/Index Scan/);

    // What the first round did before: analyzed while empty, the table is planned as empty, and
    // the cached plan reads the whole table for one row once it has grown.
    await db.exec(`truncate "odd ""name"""; analyze "odd ""name"""; deallocate by_key;
      prepare by_key(int) as select * from "odd ""name""" where id = $1;`);
    expect(await plan()).toMatch(/Seq Scan/);
    await db.exec(`insert into "odd ""name""" (n) select 1 from generate_series(1, 5000)`);
    expect(await plan()).toMatch(/Seq Scan/);
  });

  it("then vacuums and analyzes only the tables whose changes passed autovacuum's thresholds", async () => {
    await maintainEmbeddedDatabase(db);
    const before = await tableState();
    // busy: 1,000 dead rows > 50 + 20% of 2,000; "odd": 1,200 rows inserted > 1,000 + 20% of 0;
    // quiet: 5 rows, under every threshold.
    await db.exec(`update busy set status = 'done' where id % 2 = 0;
      insert into "odd ""name""" (n) select 1 from generate_series(1, 1200);
      insert into quiet select from generate_series(1, 5);`);
    await flushCounters();
    expect(await maintainEmbeddedDatabase(db)).toMatchObject({ vacuumed: ["busy", 'odd "name"'], analyzed: ["busy", 'odd "name"'] });
    const after = await tableState();
    expect(after.find((t) => t.relname === "quiet")).toEqual(before.find((t) => t.relname === "quiet"));
    expect(after.find((t) => t.relname === 'odd "name"')?.reltuples).toBe(1200);
    const dead = await db.query<{ n_dead_tup: number }>("select n_dead_tup from pg_stat_user_tables where relname = 'busy'");
    expect(Number(dead.rows[0].n_dead_tup)).toBe(0);

    // Changes past the analyze threshold (50 + 10%) but not the vacuum one: analyzed only.
    await db.exec("insert into quiet select from generate_series(1, 60)");
    await flushCounters();
    expect(await maintainEmbeddedDatabase(db)).toMatchObject({ vacuumed: [], analyzed: ["quiet"] });
    expect((await tableState()).find((t) => t.relname === "quiet")?.reltuples).toBe(75);
  });

  it("runs a first round at once, then on its interval until stopped; a table that fails does not hold back the others", async () => {
    const stop = startEmbeddedMaintenance(db, { everyMs: 20, onError: (error) => expect.fail(String(error)) });
    // Every table with rows (the empty one is left for later).
    await vi.waitFor(async () => expect((await tableState()).filter((t) => t.vacuumed !== null).map((t) => t.relname)).toEqual(["busy", "quiet"]), {
      timeout: 5000,
    });
    await stop();
    // Stopped: nothing runs any more, however due.
    await db.exec("update busy set status = 'done'");
    await flushCounters();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stats = await db.query<{ n_dead_tup: number }>("select n_dead_tup from pg_stat_user_tables where relname = 'busy'");
    expect(Number(stats.rows[0].n_dead_tup)).toBe(2000);

    // A table whose vacuum fails is reported with its name; the next one is still done.
    const done: string[] = [];
    const errors: [string, string | undefined][] = [];
    const failing = {
      closed: false,
      query: async () => ({ rows: [{ relname: "a", target: "a", vacuum: true, analyze: true }, { relname: "b", target: "b", vacuum: true, analyze: true }] }),
      exec: async (text: string) => {
        if (text.endsWith(" a")) throw new Error("could not read block 0");
        done.push(text);
        return [];
      },
    } as unknown as PGlite;
    const stopFailing = startEmbeddedMaintenance(failing, { everyMs: 60_000, onError: (error, table) => errors.push([(error as Error).message, table]) });
    await vi.waitFor(() => expect(errors).toEqual([["could not read block 0", "a"]]), { timeout: 2000 });
    await stopFailing();
    expect(done).toEqual(["vacuum (analyze) b"]);
  });

  it("waits for its first round when told to (a server starting answers requests first)", async () => {
    const stop = startEmbeddedMaintenance(db, { everyMs: 60_000, firstAfterMs: 300, onError: (error) => expect.fail(String(error)) });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await tableState()).filter((t) => t.vacuumed !== null)).toEqual([]);
    await vi.waitFor(async () => expect((await tableState()).filter((t) => t.vacuumed !== null).map((t) => t.relname)).toEqual(["busy", "quiet"]), {
      timeout: 5000,
    });
    await stop();
  });
});
