import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PREPARED_STATEMENTS, withPreparedStatements } from "@/db/pglite-engine.mjs";

let raw: PGlite;
let db: PGlite;

beforeAll(async () => {
  raw = new PGlite();
  db = withPreparedStatements(raw);
  await raw.exec("create table items (id text primary key, n int not null, tags jsonb, at timestamptz)");
});
afterAll(async () => {
  await raw.close();
});

const prepared = async () => (await raw.query<{ name: string }>("select name from pg_prepared_statements where name like 'chorus_%'")).rows.map((r) => r.name);

describe("prepared statements on the embedded database", () => {
  it("answers like query(): rows, array rows, parsed types and affected rows, preparing each text once", async () => {
    const at = new Date("2026-11-24T10:00:00.000Z");
    const inserted = await db.query("insert into items (id, n, tags, at) values ($1, $2, $3, $4) returning *", ["a", 1, JSON.stringify(["x"]), at]);
    expect(inserted.rows).toEqual([{ id: "a", n: 1, tags: ["x"], at }]);
    expect(inserted.affectedRows).toBe(1);
    await db.query("insert into items (id, n, tags, at) values ($1, $2, $3, $4) returning *", ["b", 2, null, null]);
    const select = "select id, n from items where n >= $1 order by id";
    expect((await db.query(select, [1])).rows).toEqual([{ id: "a", n: 1 }, { id: "b", n: 2 }]);
    expect((await db.query(select, [2], { rowMode: "array" })).rows).toEqual([["b", 2]]);
    // A caller's own parsers still apply (the ORM reads timestamps as text).
    const text = await db.query<{ at: string }>("select at from items where id = $1", ["a"], { parsers: { 1184: (value: string) => value } });
    expect(typeof text.rows[0].at).toBe("string");
    // Three distinct texts: the insert, used twice; the select, used twice; the timestamp read.
    expect(await prepared()).toHaveLength(3);
    // Statements without a plan go the usual way.
    expect((await db.query("show server_version_num")).rows).toHaveLength(1);
    expect(await prepared()).toHaveLength(3);
  });

  it("throws the database's own error, and the connection stays usable", async () => {
    const duplicate = db.query("insert into items (id, n) values ($1, $2)", ["a", 3]);
    await expect(duplicate).rejects.toMatchObject({ code: "23505" });
    await expect(db.query("select n from items where n = $1", ["not a number"])).rejects.toMatchObject({ code: "22P02" });
    await expect(db.query("select nothing from nowhere where x = $1", [1])).rejects.toMatchObject({ code: "42P01" });
    expect((await db.query("select count(*)::int as c from items where n > $1", [0])).rows).toEqual([{ c: 2 }]);
  });

  it("runs inside a transaction, which a rollback undoes, and waits for a transaction in progress", async () => {
    await db
      .transaction(async (tx) => {
        await tx.query("insert into items (id, n) values ($1, $2)", ["c", 3]);
        expect((await tx.query("select id from items where id = $1", ["c"])).rows).toHaveLength(1);
        throw new Error("undo");
      })
      .catch(() => undefined);
    expect((await db.query("select id from items where id = $1", ["c"])).rows).toHaveLength(0);

    let outside: Promise<unknown> | undefined;
    let sawUncommitted = true;
    await db.transaction(async (tx) => {
      await tx.query("insert into items (id, n) values ($1, $2)", ["d", 4]);
      // A statement outside the transaction waits for it to end instead of running inside it.
      outside = db.query<{ id: string }>("select id from items where id = $1", ["d"]).then((r) => (sawUncommitted = r.rows.length === 0));
      await new Promise((r) => setTimeout(r, 20));
      await tx.query("update items set n = $1 where id = $2", [5, "d"]);
    });
    await outside;
    expect(sawUncommitted).toBe(false);
  });

  it("keeps at most MAX_PREPARED_STATEMENTS, closing the least recently used", async () => {
    for (let i = 0; i < MAX_PREPARED_STATEMENTS + 20; i++) await db.query(`select $1::int + ${i} as v`, [1]);
    const count = (await prepared()).length;
    expect(count).toBeLessThanOrEqual(MAX_PREPARED_STATEMENTS + 1);
    expect(count).toBeGreaterThan(MAX_PREPARED_STATEMENTS - 5);
    expect((await db.query("select $1::int + 0 as v", [41])).rows).toEqual([{ v: 41 }]);
  });

  it("prepares again when a migration changed the columns a statement returns", async () => {
    const select = "select * from items where id = $1";
    const inTx = "select * from items where id = $1 and n > 0";
    expect(Object.keys((await db.query<Record<string, unknown>>(select, ["a"])).rows[0])).not.toContain("extra");
    await db.transaction((tx) => tx.query(inTx, ["a"]));
    await raw.exec("alter table items add column extra text");
    expect(Object.keys((await db.query<Record<string, unknown>>(select, ["a"])).rows[0])).toContain("extra");
    // Inside a transaction the error ends the transaction (as on a server database); the next use prepares again.
    await expect(db.transaction((tx) => tx.query(inTx, ["a"]))).rejects.toMatchObject({ code: "0A000" });
    expect(Object.keys((await db.transaction((tx) => tx.query<Record<string, unknown>>(inTx, ["a"]))).rows[0])).toContain("extra");
  });

  it("describes each answer by the columns the statement returns now, after a rename or a type change", async () => {
    await raw.exec("create table labels (id text primary key, title text not null, score int not null)");
    await raw.exec("insert into labels values ('x', 'Urgent', 7)");
    const select = "select * from labels where id = $1";
    const first = await db.query<Record<string, unknown>>(select, ["x"]);
    expect(first.rows).toEqual([{ id: "x", title: "Urgent", score: 7 }]);
    expect(first.fields.map((f) => f.name)).toEqual(["id", "title", "score"]);
    // Reused: the same description and parsed types on every execution.
    expect((await db.query<Record<string, unknown>>(select, ["x"])).rows).toEqual([{ id: "x", title: "Urgent", score: 7 }]);
    expect((await db.query<Record<string, unknown>>(select, ["none"])).rows).toEqual([]);
    await raw.exec("alter table labels rename column title to name");
    expect((await db.query<Record<string, unknown>>(select, ["x"])).rows).toEqual([{ id: "x", name: "Urgent", score: 7 }]);
    await raw.exec("alter table labels alter column score type text");
    const changed = await db.query<Record<string, unknown>>(select, ["x"]);
    expect(changed.rows).toEqual([{ id: "x", name: "Urgent", score: "7" }]);
    expect(changed.fields.map((f) => f.dataTypeID)).toEqual([25, 25, 25]);
  });

  it("prepares again after its statements were discarded, and refuses statements once closed", async () => {
    const select = "select id from items where id = $1";
    expect((await db.query(select, ["a"])).rows).toEqual([{ id: "a" }]);
    await raw.exec("DEALLOCATE ALL");
    expect((await db.query(select, ["a"])).rows).toEqual([{ id: "a" }]);

    const other = new PGlite();
    const wrapped = withPreparedStatements(other);
    expect((await wrapped.query("select $1::int as v", [1])).rows).toEqual([{ v: 1 }]);
    await other.close();
    await expect(wrapped.query("select $1::int as v", [1])).rejects.toThrow(/closed/i);
  });
});
