import { PGlite } from "@electric-sql/pglite";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { maintainEmbeddedDatabase, startEmbeddedMaintenance } from "@/db/embedded-maintenance";

let db: PGlite;

beforeEach(async () => {
  db = new PGlite();
  await db.exec(`create table busy (id serial primary key, status text not null);
    create index on busy (status);
    create table quiet (id serial primary key);
    create table "odd ""name""" (id serial primary key, n int not null);`);
});
afterEach(async () => {
  await db.close();
});

/** The statistics counters reach the shared view at most once a second: this makes them current. */
async function flushCounters() {
  await db.query("select pg_stat_force_next_flush()");
  await db.query("select 1");
}

const tableState = async () =>
  (
    await db.query<{ relname: string; vacuumed: boolean; analyzed: boolean; reltuples: number }>(
      `select s.relname, s.last_vacuum is not null as vacuumed, s.last_analyze is not null as analyzed, c.reltuples
       from pg_stat_user_tables s join pg_class c on c.oid = s.relid order by s.relname`,
    )
  ).rows;

describe("maintenance of the embedded database (it has no autovacuum)", () => {
  it("vacuums and analyzes each table whose changes passed autovacuum's thresholds, and leaves the others alone", async () => {
    await db.exec(`insert into busy (status) select 'pending' from generate_series(1, 2000);
      update busy set status = 'done' where id % 2 = 0;
      insert into quiet select from generate_series(1, 10);
      insert into "odd ""name""" (n) select 1 from generate_series(1, 1200);`);
    await flushCounters();
    // Never analyzed: the planner has no row count at all.
    expect((await tableState()).map((t) => t.reltuples)).toEqual([-1, -1, -1]);

    const run = await maintainEmbeddedDatabase(db);
    // busy: 1,000 dead rows > 50 + 20% of its size; "odd": 1,200 rows inserted > 1,000 + 20%.
    expect(run).toEqual({ vacuumed: ["busy", 'odd "name"'], analyzed: ["busy", 'odd "name"'] });
    expect(await tableState()).toEqual([
      { relname: "busy", vacuumed: true, analyzed: true, reltuples: 2000 },
      { relname: 'odd "name"', vacuumed: true, analyzed: true, reltuples: 1200 },
      { relname: "quiet", vacuumed: false, analyzed: false, reltuples: -1 },
    ]);
    const dead = await db.query<{ n_dead_tup: number }>("select n_dead_tup from pg_stat_user_tables where relname = 'busy'");
    expect(Number(dead.rows[0].n_dead_tup)).toBe(0);

    // Nothing is due again until enough changes again; a table only analyzed when its changes
    // pass the analyze threshold but not the vacuum one.
    await flushCounters();
    expect(await maintainEmbeddedDatabase(db)).toEqual({ vacuumed: [], analyzed: [] });
    await db.exec("insert into quiet select from generate_series(1, 60)");
    await flushCounters();
    expect(await maintainEmbeddedDatabase(db)).toEqual({ vacuumed: [], analyzed: ["quiet"] });
    expect((await tableState()).find((t) => t.relname === "quiet")).toMatchObject({ vacuumed: false, analyzed: true, reltuples: 70 });
  });

  it("runs in the background on its interval until stopped, one round at a time, and reports a failed round", async () => {
    await db.exec("insert into busy (status) select 'pending' from generate_series(1, 1500)");
    await flushCounters();
    const stop = startEmbeddedMaintenance(db, { everyMs: 20, onError: (error) => expect.fail(String(error)) });
    await vi.waitFor(async () => expect((await tableState()).find((t) => t.relname === "busy")?.vacuumed).toBe(true), { timeout: 5000 });
    await stop();

    const errors: unknown[] = [];
    const failing = { closed: false, query: () => Promise.reject(new Error("disk full")), exec: () => Promise.resolve([]) } as unknown as PGlite;
    const stopFailing = startEmbeddedMaintenance(failing, { everyMs: 10, onError: (error) => errors.push(error) });
    await vi.waitFor(() => expect(errors.length).toBeGreaterThanOrEqual(2), { timeout: 2000 });
    await stopFailing();
    expect((errors[0] as Error).message).toBe("disk full");
  });
});
