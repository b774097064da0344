import postgres from "postgres";
import { type PostgresServer, postgresBinaries, startPostgresServer } from "@/tests/support/postgres-server";
import { type LiveServer, setUpAccount, startLiveServer } from "./live-server";
import { type Bench, type BenchOptions, log, round } from "./support";

const PORT = Number(process.env.BENCH_OUTAGE_PORT ?? 3714);
const GOAL = { answerMs: 2_000, recoverMs: 5_000 };

type Answer = { at: number; ms: number; status: number; retryAfter: boolean; id?: string };

/**
 * The production server on PostgreSQL, written to by four clients, while PostgreSQL is stopped
 * for 10 s (3 s in smoke) and started again: the statuses seen meanwhile (2xx or 503 with
 * Retry-After, answered within 2 s), the time from PostgreSQL's return to the first write
 * accepted again, and acknowledged writes missing afterwards (lost).
 */
export const dbOutageBench: Bench = {
  name: "db-outage",
  description: "PostgreSQL stopped for 10 s under writes: statuses seen, answer times, time to recover, lost writes",
  async run({ smoke }: BenchOptions) {
    if (!postgresBinaries()) {
      log("db-outage: skipped — PostgreSQL's server binaries (initdb, pg_ctl under /usr/lib/postgresql) are not installed");
      return { name: "db-outage", skipped: "PostgreSQL server binaries not installed", pass: true };
    }
    const outageMs = smoke ? 3_000 : 10_000;
    let database: PostgresServer | undefined;
    let server: LiveServer | undefined;
    try {
      database = await startPostgresServer();
      server = await startLiveServer(PORT, { DATABASE_URL: database.url, JOBS_POLL_MS: "200" });
      const { base } = server;
      const token = await setUpAccount(base);
      const answers: Answer[] = [];
      let running = true;
      let written = 0;
      const writer = async (w: number) => {
        for (let n = 0; running; n++) {
          const started = performance.now();
          let answer: Answer;
          try {
            const res = await fetch(`${base}/api/sandbox/inbound`, {
              method: "POST",
              headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": `outage-${w}-${n}` },
              body: JSON.stringify({ from: `155502${String(w).padStart(5, "0")}`, name: "Outage Customer", type: "text", text: `outage write ${w}-${n}` }),
              signal: AbortSignal.timeout(30_000),
            });
            const body = (await res.json().catch(() => ({}))) as { id?: string };
            answer = { at: started, ms: performance.now() - started, status: res.status, retryAfter: res.headers.has("retry-after"), id: res.status === 201 ? body.id : undefined };
          } catch {
            answer = { at: started, ms: performance.now() - started, status: 0, retryAfter: false };
          }
          answers.push(answer);
          written++;
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      await new Promise((r) => setTimeout(r, smoke ? 2_000 : 3_000));
      const stoppedAt = performance.now();
      await database.stop();
      log(`db-outage: PostgreSQL stopped for ${outageMs / 1000} s`);
      await new Promise((r) => setTimeout(r, outageMs));
      await database.start();
      const startedAt = performance.now();
      log("db-outage: PostgreSQL started again");
      const deadline = startedAt + 30_000;
      while (performance.now() < deadline && !answers.some((a) => a.at >= startedAt && a.status === 201)) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 2_000));
      running = false;
      await Promise.all(writers);

      const firstBack = answers.filter((a) => a.at >= startedAt && a.status === 201).sort((a, b) => a.at + a.ms - (b.at + b.ms))[0];
      const recoverMs = firstBack ? firstBack.at + firstBack.ms - startedAt : Infinity;
      const during = answers.filter((a) => a.at + a.ms >= stoppedAt && a.at <= startedAt);
      const statuses: Record<string, number> = {};
      for (const a of during) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
      const acknowledged = answers.filter((a) => a.status === 201 && a.id).map((a) => a.id!);
      const sql = postgres(database.url, { max: 1, onnotice: () => {} });
      const found = await sql<{ n: number }[]>`select count(*)::int as n from messages where id = any(${acknowledged})`;
      await sql.end();
      const lost = acknowledged.length - found[0].n;
      const worstMs = Math.max(...during.map((a) => a.ms));
      for (const a of during.filter((x) => x.ms > GOAL.answerMs)) log(`db-outage: slow answer ${a.status} in ${round(a.ms)} ms, sent ${round(a.at - stoppedAt)} ms after the stop`);
      const unexplained = during.filter((a) => !(a.status === 201 || (a.status === 503 && a.retryAfter))).length;
      const result = {
        name: "db-outage",
        outage_s: outageMs / 1000,
        writes: written,
        statuses_during_outage: statuses,
        unexplained_answers: unexplained,
        worst_answer_ms_during_outage: round(worstMs, 1),
        time_to_recover_ms: round(recoverMs, 1),
        acknowledged_writes: acknowledged.length,
        lost_writes: lost,
        goal: `during the outage every answer is 2xx or 503 with Retry-After within ${GOAL.answerMs} ms; first write accepted within ${GOAL.recoverMs} ms of PostgreSQL's return; 0 lost writes`,
      };
      const pass = unexplained === 0 && worstMs <= GOAL.answerMs && recoverMs <= GOAL.recoverMs && lost === 0;
      return { ...result, pass };
    } finally {
      await server?.stop();
      database?.destroy();
    }
  },
};
