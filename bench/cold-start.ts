import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { closeDb, getDb, newPglite, openPglite, setDbHandle } from "@/db";
import { seedSearchData, vocabulary } from "./search";
import { ensureBuild, startChorus, stopChorus } from "./server-process";
import { type Bench, type BenchOptions, createBenchAccount, log, round, withoutSecondaryIndexes } from "./support";

const PORT = Number(process.env.BENCH_COLD_START_PORT ?? 3771);
const BASE = `http://localhost:${PORT}`;
const GOAL_MS = 2_000;
const startServer = (dataDir: string) => startChorus({ port: PORT, env: { PGLITE_DIR: dataDir } });
const stop = stopChorus;

/** Milliseconds from the process's start until GET /v1/health answers that the database and the jobs are fine. */
async function timeToHealthy(server: ChildProcess, started: number, token: string) {
  let firstAnswerMs: number | undefined;
  for (let i = 0; i < 3_000; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    const res = await fetch(`${BASE}/v1/health`, { headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
    if (res) {
      firstAnswerMs ??= performance.now() - started;
      const body = (await res.json().catch(() => ({}))) as { checks?: { database?: { status?: string } } };
      if (res.status === 200 && body.checks?.database?.status === "ok") return { healthy_ms: performance.now() - started, first_answer_ms: firstAnswerMs };
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("the server never became healthy");
}

/**
 * A restart after a crash with a backlog: a data directory holding 100,000 messages and 1,000
 * due jobs (half of them claimed by a process that died), the server started on it, the time
 * until GET /v1/health answers healthy. Twice: the first start, then a restart after a SIGKILL
 * while it works through the backlog. Goal: < 2 s each.
 */
export const coldStartBench: Bench = {
  name: "cold-start",
  description: "restart on a data directory with 100,000 messages and 1,000 due jobs until /v1/health is healthy",
  async run({ smoke }: BenchOptions) {
    const size = smoke
      ? { conversations: 50, messagesPerConversation: 20, jobs: 20, warmup: 0, samples: 0 }
      : { conversations: 5_000, messagesPerConversation: 20, jobs: 1_000, warmup: 0, samples: 0 };
    ensureBuild();
    const dataDir = mkdtempSync(path.join(tmpdir(), "chorus-cold-start-"));
    let server: ChildProcess | undefined;
    try {
      await closeDb();
      const handle = openPglite(newPglite(dataDir));
      await handle.migrate();
      setDbHandle(handle);
      const { account, user, token } = await createBenchAccount();
      const messageCount = size.conversations * size.messagesPerConversation;
      await withoutSecondaryIndexes(["contacts", "conversations", "messages"], () => seedSearchData({ accountId: account.id, userId: user.id, size, words: vocabulary() }));
      // The backlog: status reports of sent messages still to simulate, half claimed by the process that died.
      await getDb().execute(sql`update messages set status = 'sent' where account_id = ${account.id} and direction = 'outbound' and id <= 'msg_bench' || lpad(${size.jobs * 2}::text, 17, '0')`);
      await getDb().execute(sql`
        insert into jobs (account_id, kind, payload, status, run_at, attempts, locked_until, created_at, updated_at)
        select ${account.id}, 'message.simulate-status',
               jsonb_build_object('messageId', 'msg_bench' || lpad((j * 2 - 1)::text, 17, '0'), 'status', 'delivered'),
               case when j % 2 = 0 then 'running' else 'pending' end, now() - interval '1 minute',
               case when j % 2 = 0 then 1 else 0 end, case when j % 2 = 0 then now() + interval '1 minute' end, now(), now()
        from generate_series(1, ${size.jobs}) as j`);
      await closeDb();
      log(`data directory ready: ${messageCount.toLocaleString("en-US")} messages, ${size.jobs} due jobs`);

      const runs: { healthy_ms: number; first_answer_ms: number }[] = [];
      for (const how of ["first start on the backlog", "restart after a crash"]) {
        const started = performance.now();
        server = startServer(dataDir);
        const run = await timeToHealthy(server, started, token);
        runs.push(run);
        log(`  restart ${how}: healthy in ${round(run.healthy_ms, 0)} ms`);
        // Let it work through part of the backlog, then crash it.
        await new Promise((r) => setTimeout(r, 300));
        await stop(server, "SIGKILL");
        server = undefined;
      }
      const worst = Math.max(...runs.map((r) => r.healthy_ms));
      return {
        name: this.name,
        messages: messageCount,
        due_jobs: size.jobs,
        runs: runs.map((r) => ({ healthy_ms: round(r.healthy_ms, 1), first_answer_ms: round(r.first_answer_ms, 1) })),
        worst_healthy_ms: round(worst, 1),
        goal: `healthy < ${GOAL_MS} ms`,
        pass: worst < GOAL_MS,
      };
    } finally {
      if (server) await stop(server, "SIGKILL");
      await closeDb();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
