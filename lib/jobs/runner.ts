import { loggable } from "@/lib/platform/errors";
import { sql } from "drizzle-orm";
import { type Db, rowsOf, toDate } from "@/db";
import { jobs } from "@/db/schema";
import { deliveryQueue } from "./delivery-queue";
import type { JobKind } from "./enqueue";
import { type ClaimedJob, type ClaimOptions, DELIVERIES_SOURCE, fairPicks, JOB_LEASE_MS, type JobId, type JobSource, NO_CAP, type Recorded } from "./source";

/**
 * `attempt` counts claims of this row (1 on the first run); `now` is the clock the row was
 * claimed with, so a handler's "is it due yet" checks agree with the claim (tests and
 * benchmarks drive the runner with a simulated `now`). `takeover` is set when the previous
 * claim of the row ran out while it was running: the process that held it died, so work
 * it left half done is known to be abandoned.
 */
export type JobContext = {
  jobId: JobId;
  /** The source the job was claimed from (JOBS_SOURCE: the jobs table). */
  source?: string;
  attempt: number;
  now: Date;
  createdAt?: Date;
  takeover?: boolean;
  /** The runner holds a lease on the row (`attempt` is its claim count): a batch handler may write the outcome itself. */
  claimed?: boolean;
};
/**
 * What a handler reports: nothing when done, `retryAt` to run again later (the handler's
 * own schedule), `failed` to stop for good. A thrown error retries with backoff.
 */
export type JobOutcome = void | { retryAt: Date; error?: string } | { failed: string };
export type JobHandler = (payload: Record<string, unknown>, ctx: JobContext) => Promise<JobOutcome>;
export type JobHandlers = Partial<Record<JobKind, JobHandler>>;
/**
 * Runs many claimed jobs of one kind together (shared reads and writes); returns one promise
 * per job, in order, each settling as soon as that job is finished.
 */
export type JobBatchHandler = (items: { payload: Record<string, unknown>; ctx: JobContext }[]) => Promise<JobOutcome | typeof OUTCOME_RECORDED>[];
/**
 * What a batch handler answers for a claimed job whose outcome it has written itself, in the
 * statement that recorded the work (jobs.id, claim count and status checked as recordOutcomes does).
 */
export const OUTCOME_RECORDED = Symbol("outcome recorded");
export type JobBatchHandlers = Partial<Record<JobKind, JobBatchHandler>>;

/** How often a live runner renews the leases of the jobs it runs (well within JOB_LEASE_MS). */
const JOB_HEARTBEAT_MS = 10_000;
const MAX_THROWN_ATTEMPTS = 10;

/**
 * Lanes keep kinds of work from waiting on each other: outbound customer sends never queue
 * behind webhook deliveries. Within a lane, claims go round-robin across accounts, and at
 * most `perAccount` jobs of one account and `perGroup` of one endpoint run at a time, so one
 * account's hanging receivers cannot take every slot.
 */
export type Lane = {
  name: string;
  /** The source the lane claims from (default: the jobs table). */
  source?: string;
  /** Jobs-table kinds this lane takes; null: every kind no other lane names. */
  kinds: readonly JobKind[] | null;
  concurrency: number;
  perAccount?: number;
  perGroup?: number;
  /**
   * The shortest time between two claims woken by commits: work committed meanwhile is taken
   * together, one claim and one batch instead of one per commit (a few ms of latency for a
   * fraction of the statements under load). A full claim still goes on at once.
   */
  gatherMs?: number;
};

const SEND_KINDS: readonly JobKind[] = ["message.send", "message.auto-reply", "message.simulate-status", "message.fetch-media"];
export const DEFAULT_LANES: Lane[] = [
  { name: "sends", kinds: SEND_KINDS, concurrency: 16, perAccount: 8 },
  { name: "webhooks", source: DELIVERIES_SOURCE, kinds: null, concurrency: 256, perAccount: 128, perGroup: 32, gatherMs: 50 },
  // Everything else: snooze wake-ups, template reviews, surveys, and (JOBS_BACKEND=inngest) the
  // relay of webhook deliveries.
  { name: "background", kinds: null, concurrency: 64, perAccount: 16, perGroup: 16, gatherMs: 50 },
];
/** With JOBS_BACKEND=inngest the deliveries' relay rows (jobs table) take the webhook lane's place and caps. */
export const INNGEST_LANES: Lane[] = DEFAULT_LANES.map((lane) =>
  lane.source === DELIVERIES_SOURCE ? { ...lane, source: undefined, kinds: ["webhook.deliver"] } : lane,
);

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

function backoff(attempt: number) {
  return Math.min(60_000 * 2 ** (attempt - 1), 60 * 60_000);
}

type RunnableJob = Pick<ClaimedJob, "id" | "kind" | "payload" | "attempts"> & {
  source?: string;
  lockedUntil?: Date | null;
  createdAt?: Date;
  takeover?: boolean;
};
function contextOf(job: RunnableJob, now: Date): JobContext {
  return {
    jobId: job.id,
    source: job.source ?? JOBS_SOURCE,
    attempt: job.attempts,
    now,
    createdAt: job.createdAt,
    takeover: job.takeover ?? false,
    claimed: job.lockedUntil instanceof Date,
  };
}

/** What to write for a job once its handler settled. */
async function settle(job: RunnableJob, result: Promise<JobOutcome | typeof OUTCOME_RECORDED>, now: Date): Promise<Recorded | null> {
  // A claimed row is written only while this claim holds it (its claim count is unchanged).
  const attempts = job.lockedUntil instanceof Date ? job.attempts : null;
  try {
    const outcome = await result;
    if (outcome === OUTCOME_RECORDED) return null;
    const claimed_at = now.toISOString();
    if (outcome && "retryAt" in outcome) {
      return { id: job.id, attempts, status: "pending", run_at: outcome.retryAt.toISOString(), last_error: outcome.error ?? null, claimed_at };
    }
    if (outcome && "failed" in outcome) return { id: job.id, attempts, status: "failed", run_at: null, last_error: outcome.failed, claimed_at };
    return { id: job.id, attempts, status: "done", run_at: null, last_error: null, claimed_at };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`job ${job.id} (${job.kind}) attempt ${job.attempts} failed: ${loggable(error)}`);
    const giveUp = job.attempts >= MAX_THROWN_ATTEMPTS;
    return {
      id: job.id,
      attempts,
      status: giveUp ? "failed" : "pending",
      run_at: new Date(now.getTime() + backoff(job.attempts)).toISOString(),
      last_error: message.slice(0, 1000),
      claimed_at: now.toISOString(),
    };
  }
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

const JOBS_SOURCE = "jobs";

/** The jobs table: every kind of background work written with enqueueJob. */
const jobsTable: JobSource = {
  name: JOBS_SOURCE,
  claim: claimDueJobs,
  renew: renewLeases,
  record: recordOutcomes,
  releaseStale: releaseStaleClaims,
};

/**
 * Where the runner claims work: the jobs table, and the webhook deliveries, whose rows are
 * their own jobs (no second row per delivery).
 */
const allSources = (): JobSource[] => [jobsTable, deliveryQueue];

/** The jobs table and the deliveries, each while it is enabled. */
function jobSources(): JobSource[] {
  return allSources().filter((source) => source.enabled?.() ?? true);
}

function sourceNamed(name: string | undefined): JobSource {
  if (!name || name === JOBS_SOURCE) return jobsTable;
  const source = allSources().find((s) => s.name === name);
  if (!source) throw new Error(`no job source named ${name}`);
  return source;
}

/**
 * The embedded database has one owner: a claim still held when the process starts was taken
 * by a process that died, and its work is due again at once (in every source).
 */
export async function releaseAllStaleClaims(db: Db) {
  let released = 0;
  for (const source of allSources()) released += await source.releaseStale(db);
  return released;
}

/** Items grouped by the source they belong to. */
function bySource<I extends { source: JobSource }, T>(items: I[], pick: (item: I) => T): Map<JobSource, T[]> {
  const groups = new Map<JobSource, T[]>();
  for (const item of items) {
    const group = groups.get(item.source);
    if (group) group.push(pick(item));
    else groups.set(item.source, [pick(item)]);
  }
  return groups;
}

/** Runs one claimed job and records its outcome. */
export async function runJob(db: Db, job: RunnableJob, handlers: JobHandlers, { now = new Date() }: { now?: Date } = {}) {
  const handler = handlers[job.kind as JobKind];
  const result = handler ? handler(job.payload, contextOf(job, now)) : Promise.resolve({ failed: `no handler for ${job.kind}` } as JobOutcome);
  const recorded = await settle(job, result, now);
  if (recorded) await sourceNamed(job.source).record(db, [recorded]);
}

/** Starts every job of a claimed list: batch kinds together, the rest one by one. One promise per job, in order. */
function startJobs(jobs: ClaimedJob[], handlers: JobHandlers, batchHandlers: JobBatchHandlers, now: Date): Promise<JobOutcome | typeof OUTCOME_RECORDED>[] {
  const results: Promise<JobOutcome | typeof OUTCOME_RECORDED>[] = new Array(jobs.length);
  const byKind = new Map<string, number[]>();
  jobs.forEach((job, index) => {
    if (batchHandlers[job.kind as JobKind]) {
      byKind.set(job.kind, [...(byKind.get(job.kind) ?? []), index]);
      return;
    }
    const handler = handlers[job.kind as JobKind];
    results[index] = handler
      ? Promise.resolve().then(() => handler(job.payload, contextOf(job, now)))
      : Promise.resolve({ failed: `no handler for ${job.kind}` });
  });
  for (const [kind, indexes] of byKind) {
    let started: Promise<JobOutcome | typeof OUTCOME_RECORDED>[];
    try {
      started = batchHandlers[kind as JobKind]!(indexes.map((i) => ({ payload: jobs[i].payload, ctx: contextOf(jobs[i], now) })));
    } catch (error) {
      started = indexes.map(() => Promise.reject(error));
    }
    indexes.forEach((jobIndex, n) => (results[jobIndex] = started[n]));
  }
  return results;
}

/** Runs every job due now (and those they make due now) until none is left; for tests and benchmarks. */
export async function drainJobs(
  db: Db,
  handlers: JobHandlers,
  { now, maxRounds = 100, batchHandlers = {} }: { now?: Date; maxRounds?: number; batchHandlers?: JobBatchHandlers } = {},
) {
  let ran = 0;
  for (let round = 0; round < maxRounds; round++) {
    const at = now ?? new Date();
    let claimed = 0;
    for (const source of jobSources()) {
      const due = await source.claim(db, { limit: 50, now: at });
      claimed += due.length;
      const single = due.filter((job) => !batchHandlers[job.kind as JobKind]);
      // One at a time, as a single worker would; batch kinds together afterwards.
      for (const job of single) await runJob(db, job, handlers, { now: at });
      const batched = due.filter((job) => batchHandlers[job.kind as JobKind]);
      if (batched.length) {
        const results = startJobs(batched, handlers, batchHandlers, at);
        const outcomes = await Promise.all(batched.map((job, i) => settle(job, results[i], at)));
        const written = outcomes.filter((outcome): outcome is Recorded => outcome !== null);
        if (written.length) await source.record(db, written);
      }
    }
    if (!claimed) break;
    ran += claimed;
  }
  return ran;
}

/**
 * `wake(payload)` takes a JOBS_CHANNEL payload: the kinds enqueued (or the source name of a
 * domain source), comma-separated; only the lanes that take them claim. No payload wakes all.
 */
export type JobRunner = { stop: () => Promise<void>; wake: (payload?: string) => void };

/**
 * The in-process durable runner: claims due rows when woken (a NOTIFY on commit, or an
 * in-process signal on the embedded database), and every `pollMs` as a fallback, in lanes,
 * each with its own concurrency. Outcomes finishing together are written in one statement.
 * A heartbeat renews the leases of running jobs; on stop it waits for the jobs in flight.
 * Rows survive a crash: an unfinished claim is due again once its lease runs out.
 */
export function startJobRunner({
  db,
  handlers,
  batchHandlers = {},
  pollMs,
  concurrency,
  lanes,
  heartbeatMs = JOB_HEARTBEAT_MS,
  batchSize = 100,
}: {
  db: Db;
  handlers: JobHandlers;
  batchHandlers?: JobBatchHandlers;
  pollMs: number;
  /** One lane for every kind with this concurrency (the default: DEFAULT_LANES). */
  concurrency?: number;
  lanes?: Lane[];
  heartbeatMs?: number;
  batchSize?: number;
}): JobRunner {
  const enabled = new Map(jobSources().map((source) => [source.name, source]));
  // With one lane for every kind, each enabled domain source gets a lane of its own too.
  const configured: Lane[] =
    lanes ??
    (concurrency !== undefined
      ? [{ name: "all", kinds: null, concurrency }, ...[...enabled.keys()].filter((name) => name !== JOBS_SOURCE).map((name) => ({ name, source: name, kinds: null, concurrency }))]
      : DEFAULT_LANES);
  // A lane whose source is not running here (the deliveries with JOBS_BACKEND=inngest) is left out.
  const laneList = configured.filter((lane) => enabled.has(lane.source ?? JOBS_SOURCE));
  const named = laneList.filter((lane) => (lane.source ?? JOBS_SOURCE) === JOBS_SOURCE).flatMap((lane) => lane.kinds ?? []);
  let stopped = false;
  const inFlight = new Map<string, { source: JobSource; id: JobId; attempts: number; done: Promise<void> }>();
  let pendingWrites: { source: JobSource; outcome: Recorded; resolve: () => void }[] = [];
  let writing: Promise<void> | undefined;

  function flushOutcomes() {
    if (writing || !pendingWrites.length) return;
    const batch = pendingWrites;
    pendingWrites = [];
    writing = Promise.all([...bySource(batch, (b) => b.outcome)].map(([source, outcomes]) => source.record(db, outcomes)))
      .then(() => undefined)
      .catch((error) => console.error(`job runner: recording outcomes failed: ${loggable(error)}`))
      .finally(() => {
        writing = undefined;
        for (const b of batch) b.resolve();
        flushOutcomes();
      });
  }

  type LaneState = {
    lane: Lane;
    source: JobSource;
    running: number;
    accounts: Map<string, number>;
    groups: Map<string, number>;
    polling?: Promise<void>;
    again: boolean;
    timer?: NodeJS.Timeout;
    lastClaimAt: number;
    /**
     * Due work may be waiting for a free slot (the last claim was full, or a cap or the lane's
     * concurrency held it back): a finishing job wakes the lane. Otherwise everything due was
     * claimed, and new work wakes the lane by its commit (or the poll fallback).
     */
    heldBack: boolean;
  };
  const states: LaneState[] = laneList.map((lane) => ({ lane, source: enabled.get(lane.source ?? JOBS_SOURCE)!, running: 0, accounts: new Map(), groups: new Map(), again: false, lastClaimAt: 0, heldBack: false }));
  const atCap = (state: LaneState) =>
    state.running >= state.lane.concurrency ||
    [...state.accounts.values()].some((n) => n >= (state.lane.perAccount ?? NO_CAP)) ||
    [...state.groups.values()].some((n) => n >= (state.lane.perGroup ?? NO_CAP));
  const bump = (map: Map<string, number>, key: string, by: number) => {
    const next = (map.get(key) ?? 0) + by;
    if (next <= 0) map.delete(key);
    else map.set(key, next);
  };

  async function poll(state: LaneState) {
    const { lane } = state;
    do {
      state.again = false;
      const free = lane.concurrency - state.running;
      if (free <= 0 || stopped) {
        state.heldBack = true;
        break;
      }
      const limit = Math.min(free, batchSize);
      const now = new Date();
      state.lastClaimAt = performance.now();
      let due: ClaimedJob[] = [];
      try {
        due = await state.source.claim(db, {
          limit,
          now,
          kinds: lane.kinds,
          exceptKinds: lane.kinds ? [] : named,
          perAccount: lane.perAccount,
          perGroup: lane.perGroup,
          busyAccounts: Object.fromEntries(state.accounts),
          busyGroups: Object.fromEntries(state.groups),
        });
      } catch (error) {
        if (!stopped) console.error(`job runner: claiming jobs failed: ${loggable(error)}`);
        state.heldBack = true;
        break;
      }
      const results = startJobs(due, handlers, batchHandlers, now);
      due.forEach((job, i) => {
        const account = job.accountId ?? "";
        // With the claim count: a row this process claims again (its lease ran out) is a new entry.
        const key = `${state.source.name}:${job.id}:${job.attempts}`;
        state.running++;
        bump(state.accounts, account, 1);
        bump(state.groups, job.group, 1);
        const done = settle(job, results[i], now)
          .then((outcome) =>
            outcome === null
              ? undefined
              : new Promise<void>((resolve) => {
                  pendingWrites.push({ source: state.source, outcome, resolve });
                  flushOutcomes();
                }),
          )
          .finally(() => {
            inFlight.delete(key);
            state.running--;
            bump(state.accounts, account, -1);
            bump(state.groups, job.group, -1);
            if (state.heldBack) wakeLane(state);
          });
        inFlight.set(key, { source: state.source, id: job.id, attempts: job.attempts, done });
      });
      state.heldBack = due.length === limit || atCap(state);
      // Claimed in full: there may be more. An empty claim stops here, unless a wake came during
      // it (for work its snapshot did not see yet).
      if (due.length === limit) state.again = true;
    } while (state.again && !stopped);
  }

  function tick(state: LaneState) {
    clearTimeout(state.timer);
    if (stopped) return;
    if (state.polling) {
      state.again = true;
      return;
    }
    state.polling = poll(state).finally(() => {
      state.polling = undefined;
      if (stopped) return;
      state.timer = setTimeout(() => tick(state), pollMs);
      // A wake that came after the loop's last look is not lost.
      if (state.again) wakeLane(state);
    });
  }

  const scheduled = new Set<LaneState>();
  function wakeLane(state: LaneState) {
    if (stopped || scheduled.has(state)) return;
    scheduled.add(state);
    const run = () => {
      scheduled.delete(state);
      tick(state);
    };
    const wait = state.lastClaimAt + (state.lane.gatherMs ?? 0) - performance.now();
    if (wait > 0) setTimeout(run, wait);
    else setImmediate(run);
  }
  const domainSources = new Set([...enabled.keys()].filter((name) => name !== JOBS_SOURCE));
  /** Whether work named in a wake-up (a kind, or a domain source's name) is this lane's. */
  function takes(state: LaneState, token: string) {
    if (state.source.name !== JOBS_SOURCE) return token === state.source.name;
    if (domainSources.has(token)) return false;
    return state.lane.kinds ? state.lane.kinds.includes(token as JobKind) : !named.includes(token as JobKind);
  }
  function wake(payload?: string) {
    const tokens = payload ? payload.split(",").filter(Boolean) : [];
    for (const state of states) if (!tokens.length || tokens.some((token) => takes(state, token))) wakeLane(state);
  }

  const heartbeat = setInterval(() => {
    for (const [source, held] of bySource([...inFlight.values()], ({ id, attempts }) => ({ id, attempts }))) {
      source.renew(db, held).catch((error) => {
        if (!stopped) console.error(`job runner: renewing leases failed: ${loggable(error)}`);
      });
    }
  }, heartbeatMs);
  heartbeat.unref?.();

  for (const state of states) tick(state);
  return {
    wake,
    async stop() {
      stopped = true;
      clearInterval(heartbeat);
      for (const state of states) clearTimeout(state.timer);
      await Promise.all(states.map((state) => state.polling));
      await Promise.allSettled([...inFlight.values()].map((job) => job.done));
      await writing;
    },
  };
}
