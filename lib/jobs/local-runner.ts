import type { SystemContext } from "@/lib/auth/context";
import { loggable } from "@/lib/platform/errors";
import type { JobId, JobKind, JobRegistry } from "./define";
import { settle } from "./retry";
import { startJobs } from "./runner";
import { type ClaimedJob, DELIVERIES_SOURCE, JOBS_SOURCE, type JobSource, NO_CAP, type Recorded } from "./source";
import { bySource, jobSources } from "./sources";

/** How often a live runner renews the leases of the jobs it runs (well within JOB_LEASE_MS). */
const JOB_HEARTBEAT_MS = 10_000;

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
  system,
  jobs,
  batches = false,
  pollMs,
  concurrency,
  lanes,
  heartbeatMs = JOB_HEARTBEAT_MS,
  batchSize = 100,
}: {
  /** The process's verb context: the pool the runner claims from, handed to every handler. */
  system: SystemContext;
  /** The job definitions this runner runs. */
  jobs: JobRegistry;
  /** Kinds with a batch handler run many claimed jobs together. */
  batches?: boolean;
  pollMs: number;
  /** One lane for every kind with this concurrency (the default: DEFAULT_LANES). */
  concurrency?: number;
  lanes?: Lane[];
  heartbeatMs?: number;
  batchSize?: number;
}): JobRunner {
  const { db } = system;
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
      const results = startJobs(system, due, jobs, now, { batches });
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
