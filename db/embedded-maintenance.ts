import type { PGlite } from "@electric-sql/pglite";

/**
 * PGlite runs PostgreSQL in one process, without the autovacuum daemon: left alone, no table
 * is ever vacuumed or analyzed. Dead row versions and index entries then pile up for as long
 * as the server runs, the free space map is never made, and the planner never gets
 * statistics (a table it has never analyzed is planned on guesses, and a cached plan made
 * while the table was small is kept as it grows). This does what autovacuum would, with its
 * default thresholds: a table is vacuumed once its dead rows (or rows inserted since its last
 * vacuum) pass a base plus a share of its size, and analyzed once the rows changed since its
 * last analyze do. One table per statement, so that requests run between them.
 */

// PostgreSQL's defaults (autovacuum_vacuum_threshold, _scale_factor, _insert_threshold,
// _insert_scale_factor, autovacuum_analyze_threshold, _scale_factor).
const VACUUM = { base: 50, share: 0.2 };
const VACUUM_INSERTS = { base: 1000, share: 0.2 };
const ANALYZE = { base: 50, share: 0.1 };

export type MaintenanceRun = { vacuumed: string[]; analyzed: string[] };

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Vacuums and analyzes the tables that autovacuum would have by now; returns their names. */
export async function maintainEmbeddedDatabase(pglite: PGlite): Promise<MaintenanceRun> {
  const due = await pglite.query<{ relname: string; vacuum: boolean; analyze: boolean }>(
    `select s.relname,
       s.n_dead_tup > $1 + $2 * c.size or s.n_ins_since_vacuum > $3 + $4 * c.size as vacuum,
       s.n_mod_since_analyze > $5 + $6 * c.size as analyze
     from pg_stat_user_tables s
     cross join lateral (select greatest(reltuples, 0) as size from pg_class where oid = s.relid) c
     where s.schemaname = current_schema()
     order by s.relname`,
    [VACUUM.base, VACUUM.share, VACUUM_INSERTS.base, VACUUM_INSERTS.share, ANALYZE.base, ANALYZE.share],
  );
  const run: MaintenanceRun = { vacuumed: [], analyzed: [] };
  for (const table of due.rows) {
    if (pglite.closed) break;
    if (table.vacuum) {
      await pglite.exec(`vacuum (analyze) ${quoteIdent(table.relname)}`);
      run.vacuumed.push(table.relname);
      run.analyzed.push(table.relname);
    } else if (table.analyze) {
      await pglite.exec(`analyze ${quoteIdent(table.relname)}`);
      run.analyzed.push(table.relname);
    }
  }
  return run;
}

/** How often the embedded server looks for tables due (autovacuum's own naptime is a minute). */
export const MAINTENANCE_EVERY_MS = 60_000;

/**
 * Runs `maintainEmbeddedDatabase` every `everyMs` until stopped (never two at once); a
 * failure is reported and the next round tries again.
 */
export function startEmbeddedMaintenance(
  pglite: PGlite,
  { everyMs = MAINTENANCE_EVERY_MS, onError }: { everyMs?: number; onError: (error: unknown) => void },
): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running || pglite.closed) return;
    running = maintainEmbeddedDatabase(pglite)
      .catch((error) => {
        if (!pglite.closed) onError(error);
      })
      .finally(() => (running = undefined));
  }, everyMs);
  timer.unref?.();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
