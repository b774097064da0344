import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { type DbHandle, getDbHandle, openPostgres, rowsOf } from "@/db";
import { accounts } from "@/db/schema";
import { newId } from "@/lib/platform/ids";

// The PostgreSQL driver's statement cache (db/postgres-statements.ts); PGlite has its own
// (tests/unit/pglite-statements.test.ts).
const onPostgres = process.env.TEST_DB === "postgres";

let extra: DbHandle | undefined;
afterEach(async () => {
  await extra?.close();
  extra = undefined;
});

/** A second handle on this file's database with a single connection, so that every query meets the same session. */
function oneConnection() {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${getDbHandle().sql!.options.database}`;
  extra = openPostgres(url.toString(), { max: 1 });
  return extra;
}

const preparedTexts = async (handle: DbHandle) =>
  rowsOf<{ statement: string }>(await handle.db.execute(sql`select statement from pg_prepared_statements where not from_sql`)).map((row) => row.statement);

describe.runIf(onPostgres)("statements on PostgreSQL are prepared once per connection", () => {
  it("prepares a query with parameters and reuses it", async () => {
    const handle = oneConnection();
    const id = newId("account");
    await handle.db.insert(accounts).values({ id, name: "Prepared" });
    const query = handle.db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, id));
    const text = query.toSQL().sql;
    expect(await query).toEqual([{ name: "Prepared" }]);
    expect(await query).toEqual([{ name: "Prepared" }]);
    const texts = await preparedTexts(handle);
    expect(texts.filter((statement) => statement === text)).toHaveLength(1);
    // Utility statements are not kept.
    await handle.db.execute(sql.raw("set local statement_timeout = 5000"));
    expect((await preparedTexts(handle)).some((statement) => /^set /i.test(statement))).toBe(false);
  });

  it("keeps transactions and savepoints working, with their statements prepared", async () => {
    const { db } = getDbHandle();
    const kept = newId("account");
    const undone = newId("account");
    await db.transaction(async (tx) => {
      await tx.insert(accounts).values({ id: kept, name: "Kept" });
      await tx
        .transaction(async (inner) => {
          await inner.insert(accounts).values({ id: undone, name: "Undone" });
          throw new Error("roll back the savepoint");
        })
        .catch(() => undefined);
      const seen = rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from ${accounts} where ${accounts.id} in (${kept}, ${undone})`));
      expect(seen[0].n).toBe(1);
      const inSession = rowsOf<{ statement: string }>(await tx.execute(sql`select statement from pg_prepared_statements where not from_sql and statement like 'insert into "accounts"%'`));
      expect(inSession.length).toBeGreaterThan(0);
    });
    const after = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, undone));
    expect(after).toEqual([]);
    const [row] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, kept));
    expect(row.name).toBe("Kept");
  });

  it("prepares again a statement whose table changed under it (a migration)", async () => {
    const handle = oneConnection();
    await handle.db.execute(sql.raw("create table prepared_probe (id int primary key, label text)"));
    await handle.db.execute(sql.raw("insert into prepared_probe values (1, 'one')"));
    const read = () => handle.db.execute(sql`select * from prepared_probe where id = ${1}`).then((result) => rowsOf<Record<string, unknown>>(result));
    expect(await read()).toEqual([{ id: 1, label: "one" }]);
    await handle.db.execute(sql.raw("alter table prepared_probe add column note text default 'added'"));
    expect(await read()).toEqual([{ id: 1, label: "one", note: "added" }]);
  });

  it("refuses a bad parameter with the database's error, and the connection goes on", async () => {
    const handle = oneConnection();
    const bad = handle.db.execute(sql`select ${"not a number"}::int as n`);
    await expect(bad).rejects.toMatchObject({ cause: { code: "22P02" } });
    const good = rowsOf<{ n: number }>(await handle.db.execute(sql`select ${"7"}::int as n`));
    expect(good).toEqual([{ n: 7 }]);
  });
});
