import type { EmbeddedDatabase } from "./pglite-client";

/**
 * PGlite runs PostgreSQL in one process, without the autovacuum daemon: left alone, no table
 * is ever vacuumed or analyzed. Dead row versions and index entries then pile up for as long
 * as the server runs, the free space map is never made, and the planner never gets
 * statistics (a table it has never analyzed is planned on guesses, and a cached plan made
 * while the table was small is kept as it grows). This does what autovacuum would, with its
 * default thresholds: a table is vacuumed once its dead rows (or rows inserted since its last
 * vacuum) pass a base plus a share of its size, and analyzed once the rows changed since its
 * last analyze do. One table per statement, so that requests run between them.
 *
 * The counters (pg_stat_user_tables) start from zero each time the embedded database opens, as
 * PostgreSQL's do after a crash: what changed before a restart is not counted again. A table
 * never vacuumed nor analyzed (no row count in pg_class: a database from before this existed,
 * or one restarted before its tables were due) is done in the first round, unless it is still
 * empty. An empty table is left as autovacuum leaves it: the planner takes a table never
 * analyzed to have at least ten pages, whereas one analyzed empty is planned as empty (a scan
 * of the whole table for each row looked up) for every plan cached until its next analyze.
 */

// PostgreSQL's defaults (autovacuum_vacuum_threshold, _scale_factor, _insert_threshold,
// _insert_scale_factor, autovacuum_analyze_threshold, _scale_factor).
const VACUUM = { base: 50, share: 0.2 };
const VACUUM_INSERTS = { base: 1000, share: 0.2 };
const ANALYZE = { base: 50, share: 0.1 };

export type MaintenanceRun = { vacuumed: string[]; analyzed: string[]; failed: { table: string; error: unknown }[]; ms: Record<string, number> };

/** Vacuums and analyzes the tables that autovacuum would have by now. `stopped` is asked before each table. */
export async function maintainEmbeddedDatabase(pglite: EmbeddedDatabase, { stopped = () => false }: { stopped?: () => boolean } = {}): Promise<MaintenanceRun> {
  const due = await pglite.query<{ relname: string; target: string; vacuum: boolean; analyze: boolean }>(
    `select * from (
       select s.relname, s.relid::regclass::text as target,
         (c.size < 0 and pg_relation_size(s.relid) > 0) or s.n_dead_tup > $1 + $2 * c.size or s.n_ins_since_vacuum > $3 + $4 * c.size as vacuum,
         s.n_mod_since_analyze > $5 + $6 * greatest(c.size, 0) as analyze
       from pg_stat_user_tables s
       cross join lateral (select reltuples as size from pg_class where oid = s.relid) c
       where s.schemaname = current_schema()
     ) due
     where vacuum or "analyze"
     order by relname`,
    [VACUUM.base, VACUUM.share, VACUUM_INSERTS.base, VACUUM_INSERTS.share, ANALYZE.base, ANALYZE.share],
  );
  const run: MaintenanceRun = { vacuumed: [], analyzed: [], failed: [], ms: {} };
  for (const table of due.rows) {
    if (stopped() || pglite.closed) break;
    const started = performance.now();
    try {
      // `target` is the table's regclass as text: schema-qualified when needed, quoted by PostgreSQL.
      await pglite.exec(table.vacuum ? `vacuum (analyze) ${table.target}` : `analyze ${table.target}`);
    } catch (error) {
      // One table that cannot be vacuumed does not hold back the others.
      run.failed.push({ table: table.relname, error });
      continue;
    }
    run.ms[table.relname] = Math.round(performance.now() - started);
    if (table.vacuum) run.vacuumed.push(table.relname);
    run.analyzed.push(table.relname);
  }
  return run;
}

/** How often the embedded server looks for tables due (autovacuum's own naptime is a minute). */
const MAINTENANCE_EVERY_MS = 60_000;
/** A table that held the database this long is reported (requests waited behind it). */
const SLOW_TABLE_MS = 1_000;

/**
 * Runs `maintainEmbeddedDatabase` every `everyMs` until stopped (never two rounds at once): the
 * first round right away. A failure is reported and the next round tries again; stopping
 * waits for the table being vacuumed, not for the rest of the round.
 */
export function startEmbeddedMaintenance(
  pglite: EmbeddedDatabase,
  {
    everyMs = MAINTENANCE_EVERY_MS,
    firstAfterMs = 0,
    onError,
    onSlow = () => {},
  }: {
    everyMs?: number;
    /** When the first round runs (then every `everyMs`): a server starting up has requests to answer first. */
    firstAfterMs?: number;
    onError: (error: unknown, table?: string) => void;
    onSlow?: (table: string, ms: number) => void;
  },
): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const round = () => {
    if (running || stopped || pglite.closed) return;
    running = maintainEmbeddedDatabase(pglite, { stopped: () => stopped })
      .then((run) => {
        for (const { table, error } of run.failed) if (!pglite.closed) onError(error, table);
        for (const [table, ms] of Object.entries(run.ms)) if (ms >= SLOW_TABLE_MS) onSlow(table, ms);
      })
      .catch((error) => {
        if (!pglite.closed) onError(error);
      })
      .finally(() => (running = undefined));
  };
  const timer = setInterval(round, everyMs);
  timer.unref?.();
  const first = firstAfterMs > 0 ? setTimeout(round, firstAfterMs) : undefined;
  first?.unref?.();
  if (!first) round();
  return async () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
