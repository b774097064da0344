import { type SQL, sql } from "drizzle-orm";
import type { Db } from "@/db";
import type { Job } from "@/db/schema";
import type { JobId, JobKind } from "./define";

/**
 * Where claimable work lives. The jobs table holds every kind; a table whose rows are their
 * own jobs (webhook deliveries: no second row per delivery, ./delivery-queue.ts) is a source
 * of one kind. The runner knows both by import. Each source claims with the same lease,
 * fairness and caps, renews its leases, records outcomes and releases stale claims.
 */
export type JobSource = {
  name: string;
  /** False while another backend runs this work (the deliveries with JOBS_BACKEND=inngest). */
  enabled?: () => boolean;
  claim: (db: Db, options: ClaimOptions) => Promise<ClaimedJob[]>;
  renew: (db: Db, held: { id: JobId; attempts: number }[], now?: Date) => Promise<void>;
  record: (db: Db, outcomes: Recorded[]) => Promise<void>;
  /** The embedded database at start: every claim still held belongs to a process that died. */
  releaseStale: (db: Db) => Promise<number>;
};

/**
 * A claim is a lease: a live runner renews the leases of the jobs it runs every
 * JOB_HEARTBEAT_MS, so a claim whose process died runs out within JOB_LEASE_MS and the job is
 * due again. On the embedded database (one owner) stale claims are released at start.
 */
export const JOB_LEASE_MS = 30_000;
/** The webhook deliveries as a job source (its name in wake-ups and lanes). */
export const DELIVERIES_SOURCE = "webhook-deliveries";
/** The jobs table as a job source: every kind written with enqueueJob. */
export const JOBS_SOURCE = "jobs";

export type ClaimedJob = Pick<Job, "kind" | "payload" | "attempts" | "createdAt"> & {
  id: JobId;
  /** The source the job was claimed from. */
  source: string;
  /** The lease this claim holds; the outcome is recorded only while it still holds it. */
  lockedUntil: Date | null;
  accountId: string | null;
  /** The endpoint (or other resource) the job works on; jobs of one group share a cap. */
  group: string;
  /** The previous claim of this row ran out while running (its process died). */
  takeover: boolean;
};

export type ClaimOptions = {
  limit?: number;
  now?: Date;
  /** The kinds this claim may take (a lane); null: every kind not named by `exceptKinds`. */
  kinds?: readonly JobKind[] | null;
  exceptKinds?: readonly JobKind[];
  perAccount?: number;
  perGroup?: number;
  /** Jobs this process already runs, per account and per group (they count against the caps). */
  busyAccounts?: Record<string, number>;
  busyGroups?: Record<string, number>;
};

/** A cap no lane reaches (a lane without a per-account or per-group cap). */
export const NO_CAP = 1_000_000;

/** How many fairly ranked candidates a claim considers per job it takes (room for concurrent claimers). */
const CLAIM_POOL_FACTOR = 4;

/**
 * The fair order of a claim, as two CTEs after one named `grouped` (id, run_at, account, grp,
 * group_rank: the row's rank within its group) that ends in `picked`. The per-group cap comes
 * first, then the accounts' ranks over what is left: one endpoint's backlog does not use up its
 * account's places ahead of the account's other endpoints. Rows this process already runs
 * count against both caps.
 */
export function fairPicks(options: ClaimOptions & { limit: number }): SQL {
  const { perAccount = NO_CAP, perGroup = NO_CAP } = options;
  return sql`ranked as (
      select id, run_at, account, row_number() over (partition by account order by run_at, id) as account_rank from grouped
      where group_rank <= ${perGroup}::int - coalesce((${JSON.stringify(options.busyGroups ?? {})}::jsonb ->> grp)::int, 0)
    ),
    picked as (
      select id, account_rank, run_at from ranked
      where account_rank <= ${perAccount}::int - coalesce((${JSON.stringify(options.busyAccounts ?? {})}::jsonb ->> account)::int, 0)
      order by account_rank, run_at, id
      limit ${options.limit * CLAIM_POOL_FACTOR}
    )`;
}

/**
 * A finished job's outcome, as its source writes it. `attempts` is the claim count the
 * outcome is written under (null: not claimed); `claimed_at` the clock of that claim.
 */
export type Recorded = {
  id: JobId;
  attempts: number | null;
  status: "pending" | "done" | "failed";
  run_at: string | null;
  last_error: string | null;
  claimed_at: string;
};

