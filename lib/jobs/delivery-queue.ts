import { sql } from "drizzle-orm";
import { type Db, rowsOf, toDate } from "@/db";
import { jobs, webhookDeliveries } from "@/db/schema";
import { getEnv } from "@/lib/platform/env";
import type { JobId } from "./define";
import { type ClaimedJob, type ClaimOptions, DELIVERIES_SOURCE, fairPicks, JOB_LEASE_MS, type JobSource, type Recorded } from "./source";

/**
 * The local runner's webhook deliveries, claimed from their own rows: a delivery is due while
 * it is pending, its next attempt time has come and no live claim holds it. There is no second
 * row per delivery or per attempt. The claim is the jobs table's: a 30 s lease renewed by the
 * heartbeat, counted by `claims` (so an outcome is written only under the claim that ran it),
 * round-robin across accounts with per-account and per-endpoint caps, SKIP LOCKED between
 * server processes. A lease that ran out while running (its process died) is a takeover.
 */
export async function claimDueDeliveries(db: Db, options: ClaimOptions = {}): Promise<ClaimedJob[]> {
  const { limit = 10, now = new Date() } = options;
  const lease = new Date(now.getTime() + JOB_LEASE_MS);
  const at = now.toISOString();
  const d = webhookDeliveries;
  const due = sql`${d.status} = 'pending' and ${d.nextAttemptAt} <= ${at}::timestamptz
        and (${d.lockedUntil} is null or ${d.lockedUntil} < ${at}::timestamptz)`;
  const result = await db.execute(sql`
    with grouped as (
      select ${d.id} as id, ${d.nextAttemptAt} as run_at, ${d.accountId} as account, ${d.webhookId} as grp,
        row_number() over (partition by ${d.webhookId} order by ${d.nextAttemptAt}, ${d.id}) as group_rank
      from ${d}
      where ${due}
    ),
    ${fairPicks({ ...options, limit })},
    locked as (
      select ${d.id} as id, ${d.lockedUntil} is not null as takeover from ${d}
      join picked on picked.id = ${d.id}
      where ${due}
      order by picked.account_rank, picked.run_at, ${d.id}
      limit ${limit}
      for update of ${d} skip locked
    )
    update ${d} set locked_until = ${lease.toISOString()}::timestamptz, claims = ${d.claims} + 1
    from locked where ${d.id} = locked.id
    returning ${d.id} as id, ${d.webhookId} as webhook_id, ${d.accountId} as account_id, ${d.claims} as claims,
      ${d.createdAt} as created_at, ${d.nextAttemptAt} as run_at, locked.takeover as takeover`);
  const rows = rowsOf<{
    id: string;
    webhook_id: string;
    account_id: string;
    claims: number;
    created_at: Date | string;
    run_at: Date | string;
    takeover: boolean;
  }>(result);
  // RETURNING does not keep the subquery's order; due deliveries go oldest first.
  return rows
    .map((row) => ({ row, runAt: toDate(row.run_at).getTime() }))
    .sort((x, y) => x.runAt - y.runAt || (x.row.id < y.row.id ? -1 : 1))
    .map(({ row }) => ({
      id: row.id,
      source: DELIVERIES_SOURCE,
      kind: "webhook.deliver",
      payload: { deliveryId: row.id, webhookId: row.webhook_id },
      attempts: Number(row.claims),
      createdAt: toDate(row.created_at),
      lockedUntil: lease,
      accountId: row.account_id,
      group: row.webhook_id,
      takeover: row.takeover === true || String(row.takeover) === "t",
    }));
}

/** The heartbeat: renews the leases this process holds (a delivery claimed again elsewhere is left alone). */
async function renewDeliveryLeases(db: Db, held: { id: JobId; attempts: number }[], now = new Date()) {
  if (!held.length) return;
  const d = webhookDeliveries;
  await db.execute(sql`
    update ${d} set locked_until = ${new Date(now.getTime() + JOB_LEASE_MS).toISOString()}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(held)}::jsonb) as v(id text, attempts int)
    where ${d.id} = v.id and ${d.claims} = v.attempts and ${d.lockedUntil} is not null`);
}

/**
 * What the runner writes once a delivery's run settled, under the claim that ran it. The
 * attempt has already written the delivery's state and next attempt (the retry schedule);
 * this ends the lease and, for what the attempt could not write, moves the schedule:
 * - pending (retryAt): an attempt still in flight elsewhere, a retry moved later, or a thrown
 *   error's backoff: due again then, never earlier than already scheduled;
 * - done or failed with the delivery still pending (nothing more to send automatically, or
 *   thrown too often): no automatic attempt is scheduled (a schedule moved past the claim
 *   meanwhile, by a manual retry, stays).
 */
async function recordDeliveryOutcomes(db: Db, outcomes: Recorded[]) {
  if (!outcomes.length) return;
  const d = webhookDeliveries;
  await db.execute(sql`
    update ${d} set locked_until = null,
      next_attempt_at = case
        when ${d.status} <> 'pending' then ${d.nextAttemptAt}
        when v.status = 'pending' then greatest(coalesce(${d.nextAttemptAt}, v.run_at), v.run_at)
        when ${d.nextAttemptAt} <= v.claimed_at then null
        else ${d.nextAttemptAt} end,
      last_error = case when v.status = 'failed' and ${d.status} = 'pending' then v.last_error else ${d.lastError} end
    from jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb) as v(id text, attempts int, status text, run_at timestamptz, last_error text, claimed_at timestamptz)
    where ${d.id} = v.id and (v.attempts is null or (${d.claims} = v.attempts and ${d.lockedUntil} is not null))`);
}

/**
 * On the embedded database at start: leases still held were taken by a process that died. They
 * are ended in the past (not cleared), so the next claim runs them at once as takeovers.
 */
async function releaseStaleDeliveryClaims(db: Db) {
  const d = webhookDeliveries;
  const result = await db.execute(sql`
    update ${d} set locked_until = '-infinity'::timestamptz
    where ${d.status} = 'pending' and ${d.lockedUntil} > '-infinity'::timestamptz returning ${d.id}`);
  return rowsOf(result).length;
}

/** The deliveries as a job source; Inngest runs them instead with JOBS_BACKEND=inngest (through job rows). */
export const deliveryQueue: JobSource = {
  name: DELIVERIES_SOURCE,
  enabled: () => getEnv().JOBS_BACKEND === "local",
  claim: claimDueDeliveries,
  renew: renewDeliveryLeases,
  record: recordDeliveryOutcomes,
  releaseStale: releaseStaleDeliveryClaims,
};

/**
 * With JOBS_BACKEND=inngest at start: deliveries written while the local runner ran them (no job
 * row ever) get the job row the relay hands to Inngest, due when their next attempt is. A
 * delivery that had a job row already (written in Inngest mode) is left to it.
 */
export async function handOverLocalDeliveries(db: Db) {
  const d = webhookDeliveries;
  const result = await db.execute(sql`
    insert into ${jobs} (account_id, kind, payload, status, run_at, attempts, created_at, updated_at)
    select ${d.accountId}, 'webhook.deliver', jsonb_build_object('deliveryId', ${d.id}, 'webhookId', ${d.webhookId}), 'pending',
      ${d.nextAttemptAt}, 0, now(), now()
    from ${d}
    where ${d.status} = 'pending' and ${d.nextAttemptAt} is not null
      and not exists (select 1 from ${jobs} j where j.kind = 'webhook.deliver' and j.payload->>'deliveryId' = ${d.id})
    returning 1`);
  return rowsOf(result).length;
}
