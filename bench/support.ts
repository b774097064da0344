import { sql } from "drizzle-orm";
import { closeDb, getDb, newPglite, openPglite, rowsOf, setDbHandle } from "@/db";
import { createAccountWithUser } from "@/lib/accounts/create-account";
import { createSession } from "@/lib/auth/sessions";
import { systemContext } from "@/lib/server/context";

export type BenchResult = Record<string, unknown> & { name: string };
/** `smoke`: tiny sizes, so that CI runs every benchmark and none can rot (its numbers mean nothing). */
export type BenchOptions = { smoke: boolean };
export type Bench = { name: string; description: string; run: (options: BenchOptions) => Promise<BenchResult> };

/** Progress goes to stderr so stdout carries only the result lines. */
export const log = (message: string) => process.stderr.write(`${message}\n`);

/** A fresh, migrated embedded database installed as the process's database. */
export async function openBenchDatabase() {
  await closeDb();
  const handle = openPglite(newPglite("memory://"));
  await handle.migrate();
  setDbHandle(handle);
  return handle;
}

export async function createBenchAccount() {
  const { account, user } = await getDb().transaction((tx) =>
    createAccountWithUser(tx, { accountName: "Bench Co", name: "Bench Admin", email: "bench@example.com", password: "bench-password-123" }),
  );
  const session = await createSession(systemContext().db, { user });
  return { account, user, token: session.token };
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export const round = (n: number, digits = 3) => Number(n.toFixed(digits));

type Handler = (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** One request through a route handler, body read to the end; milliseconds. */
export async function timeRequest(handler: Handler, url: string, token: string): Promise<number> {
  const started = performance.now();
  const res = await handler(new Request(url, { headers: { authorization: `Bearer ${token}` } }), { params: Promise.resolve({}) });
  await res.text();
  const elapsed = performance.now() - started;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return elapsed;
}

/**
 * Runs a bulk load with the tables' secondary indexes dropped, then builds them again (as a
 * restore does): generating a million rows is minutes faster, and the indexes end up the same.
 * Primary keys and unique indexes stay, so the load is still checked.
 */
export async function withoutSecondaryIndexes<T>(tables: string[], load: () => Promise<T>): Promise<T> {
  const db = getDb();
  const indexes = rowsOf<{ indexname: string; indexdef: string }>(
    await db.execute(sql`
      select i.indexname, i.indexdef from pg_indexes i
      join pg_class c on c.relname = i.indexname
      join pg_index x on x.indexrelid = c.oid
      where i.schemaname = current_schema() and i.tablename in ${sql.raw(`(${tables.map((t) => `'${t}'`).join(", ")})`)}
        and not x.indisunique and not x.indisprimary`),
  );
  for (const index of indexes) await db.execute(sql.raw(`drop index "${index.indexname}"`));
  const result = await load();
  const started = performance.now();
  for (const index of indexes) await db.execute(sql.raw(index.indexdef));
  for (const table of tables) await db.execute(sql.raw(`analyze "${table}"`));
  log(`  indexes built in ${round((performance.now() - started) / 1000, 1)} s`);
  return result;
}
