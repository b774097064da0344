import { sql } from "drizzle-orm";
import { type Db, rowsOf, toDate } from "@/db";
import { jobs } from "@/db/schema";
import type { JobId } from "./define";
import { type ClaimedJob, type ClaimOptions, fairPicks, JOB_LEASE_MS, JOBS_SOURCE, type JobSource, type Recorded } from "./source";

const GROUP = sql`coalesce(${jobs.payload}->>'webhookId', ${jobs.id}::text)`;
/**
 * Claims due rows for this process. SKIP LOCKED lets several server processes claim from one
 * PostgreSQL database without taking each other's rows (PGlite has one connection). The
 * rows are picked round-robin across accounts (each account's oldest first), within the
 * per-account and per-group caps (fairPicks).
 */
export async function claimDueJobs(db: Db, options: ClaimOptions = {}): Promise<ClaimedJob[]> {
  const { limit = 10, now = new Date(), kinds = null, exceptKinds = [] } = options;
  const lease = new Date(now.getTime() + JOB_LEASE_MS);
  const at = now.toISOString();
  const laneFilter = kinds
    ? sql`and ${jobs.kind} in (select jsonb_array_elements_text(${JSON.stringify(kinds)}::jsonb))`
    : exceptKinds.length
      ? sql`and ${jobs.kind} not in (select jsonb_array_elements_text(${JSON.stringify(exceptKinds)}::jsonb))`
      : sql``;
  const due = sql`${jobs.status} in ('pending', 'running') and ${jobs.runAt} <= ${at}::timestamptz
        and (${jobs.lockedUntil} is null or ${jobs.lockedUntil} < ${at}::timestamptz)`;
  const rows = await db.execute(sql`
    with grouped as (
      select ${jobs.id} as id, ${jobs.runAt} as run_at, coalesce(${jobs.accountId}, '') as account, ${GROUP} as grp,
        row_number() over (partition by ${GROUP} order by ${jobs.runAt}, ${jobs.id}) as group_rank
      from ${jobs}
      where ${due} ${laneFilter}
    ),
    ${fairPicks({ ...options, limit })},
    -- Concurrent claimers (other instances) rank the same rows: each locks the first \`limit\` of
    -- the fair order that nobody holds, so they share the work instead of colliding on it.
    locked as (
      select ${jobs.id} as id, ${jobs.status} as previous from ${jobs}
      join picked on picked.id = ${jobs.id}
      where ${due}
      order by picked.account_rank, picked.run_at, ${jobs.id}
      limit ${limit}
      for update of ${jobs} skip locked
    )
    update ${jobs} set status = 'running', locked_until = ${lease.toISOString()}::timestamptz,
      attempts = ${jobs.attempts} + 1, updated_at = ${at}::timestamptz
    from locked where ${jobs.id} = locked.id
    returning ${jobs.id} as id, ${jobs.kind} as kind, ${jobs.payload} as payload, ${jobs.attempts} as attempts,
      ${jobs.createdAt} as created_at, ${jobs.runAt} as run_at, ${jobs.accountId} as account_id, locked.previous as previous`);
  const list = rowsOf<{
    id: number | string;
    kind: string;
    payload: Record<string, unknown> | string;
    attempts: number;
    created_at: Date | string;
    run_at: Date | string;
    account_id: string | null;
    previous: string;
  }>(rows);
  // RETURNING does not keep the subquery's order; due work runs oldest first.
  const ordered = list
    .map((r) => ({ ...r, runAt: toDate(r.run_at).getTime(), id: Number(r.id) }))
    .sort((x, y) => x.runAt - y.runAt || x.id - y.id);
  return ordered.map((r) => {
    const payload = typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload;
    return {
      id: r.id,
      source: JOBS_SOURCE,
      kind: r.kind,
      payload,
      attempts: Number(r.attempts),
      createdAt: toDate(r.created_at),
      lockedUntil: lease,
      accountId: r.account_id,
      group: typeof payload?.webhookId === "string" ? payload.webhookId : String(r.id),
      takeover: r.previous === "running",
    };
  });
}

/**
 * Renews the leases of the jobs this process is running (the heartbeat). A row another
 * process has taken over meanwhile (its claim count moved on) is left alone.
 */
async function renewLeases(db: Db, held: { id: JobId; attempts: number }[], now = new Date()) {
  if (!held.length) return;
  await db.execute(sql`
    update ${jobs} set locked_until = ${new Date(now.getTime() + JOB_LEASE_MS).toISOString()}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(held)}::jsonb) as v(id bigint, attempts int)
    where ${jobs.id} = v.id and ${jobs.attempts} = v.attempts and ${jobs.status} = 'running'`);
}

/**
 * The embedded database has one owner: a row still `running` when the process starts was
 * claimed by a process that died, and is due again at once.
 */
async function releaseStaleClaims(db: Db) {
  // The lease is ended, the status kept: the next claim knows it takes over abandoned work.
  const rows = await db.execute(sql`
    update ${jobs} set locked_until = null, updated_at = now()
    where ${jobs.status} = 'running' returning ${jobs.id}`);
  return rowsOf(rows).length;
}

/**
 * Records many outcomes in one statement. The outcome is written only while the claim
 * still holds the row: if its lease ran out and another process took the row over, that
 * process owns the outcome.
 */
async function recordOutcomes(db: Db, list: (Recorded | null)[]) {
  const outcomes = list.filter((outcome): outcome is Recorded => outcome !== null);
  if (!outcomes.length) return;
  await db.execute(sql`
    update ${jobs} set status = v.status, run_at = coalesce(v.run_at, ${jobs.runAt}), last_error = v.last_error,
      locked_until = null, updated_at = now()
    from jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb) as v(id bigint, attempts int, status text, run_at timestamptz, last_error text)
    where ${jobs.id} = v.id and (v.attempts is null or (${jobs.attempts} = v.attempts and ${jobs.status} = 'running'))`);
}

/** The jobs table: every kind of background work written with enqueueJob. */
export const jobsTable: JobSource = {
  name: JOBS_SOURCE,
  claim: claimDueJobs,
  renew: renewLeases,
  record: recordOutcomes,
  releaseStale: releaseStaleClaims,
};

