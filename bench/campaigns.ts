import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { POST as scheduleCampaign } from "@/app/v1/campaigns/[id]/schedule/route";
import { POST as createCampaign } from "@/app/v1/campaigns/route";
import { PUT as putNumber } from "@/app/v1/config/number/route";
import { closeDb, getDb, newPglite, openPglite, rowsOf, setDbHandle } from "@/db";
import { messageTemplates } from "@/db/schema";
import { resetEnvCache } from "@/lib/platform/env";
import { newId } from "@/lib/platform/ids";
import { call } from "@/tests/support/api";
import { type AcceptedMessage, buildInboundPayload, signHubPayload, startFakeCloudNetwork } from "@/tests/support/fake-cloud-network";
import { type Bench, createBenchAccount, log, percentile, round } from "./support";

const PACE = 80;
const GOAL_RATE_TOLERANCE = 0.1;
const GOAL_AGENT_P99_MS = 1000;

const sizes = (smoke: boolean) => (smoke ? { recipients: 200, optedOut: 10 } : { recipients: 10_000, optedOut: 200 });

type Status = { type: "status"; status: string; uptimeMs?: number; db?: { jobs: number; ms: number; yieldingJobs: number; yieldingMs: number } };
type Probe = { type: "probe"; asked: number; answeredMs: number; status: number };
type Notified = { type: "notified"; id: number; status: number; applied: number };

const APP_SECRET = "bench-app-secret-campaign-0123456";
/** How often the network posts the statuses of the messages it accepted since, and how many at most in one notification. */
const NOTIFY_EVERY_MS = 250;
const STATUSES_PER_NOTIFICATION = 100;

/**
 * `campaign-10k`: a campaign to 10,000 consenting contacts (and some opted out) on an embedded
 * database, sent by a server process of its own to the fake network at the default pace
 * (80 per second), killed with SIGKILL when 40 % are sent and started again. Measures the
 * sustained rate of each run (within 10 % of the pace), duplicates (none), every recipient
 * accounted for (each consenting one sent once, or failed `interrupted` when the kill came
 * before the network took it), and how soon an agent's message reaches the network meanwhile
 * (p99 < 1 s). The network posts the `sent` status of each message it accepted, with the callback
 * data the message was sent with, to the server running, and posts again to the next server what
 * a killed one never answered: a recipient whose send's answer the kill cut short is counted
 * from its status.
 *
 * The agent's goal counts every send asked of a running server and refused (anything but a 201)
 * or taken to the network by it. Sends asked just before the kill and taken to the network by
 * the restarted server wait for the restart itself: they are reported apart
 * (`agent_across_kill`), as is how long the API took to answer (`agent_answer_p99_ms`).
 */
export const campaignBench: Bench = {
  name: "campaign-10k",
  description: "10,000 campaign recipients at 80/s to the fake network, kill -9 at 40 % and restart: pace, duplicates, agent send latency",
  async run({ smoke }) {
    const size = sizes(smoke);
    const dataDir = mkdtempSync(path.join(tmpdir(), "chorus-campaign-bench-"));
    const network = await startFakeCloudNetwork({ accessToken: "EAAG-bench-campaign", phoneNumberId: "306540771234567", businessAccountId: "402290177712345" });
    const workers: ChildProcess[] = [];
    // The fake network is a local http:// server.
    const insecure = process.env.WEBHOOK_ALLOW_INSECURE_TARGETS;
    process.env.WEBHOOK_ALLOW_INSECURE_TARGETS = "true";
    resetEnvCache();
    try {
      await closeDb();
      const handle = openPglite(newPglite(dataDir));
      await handle.migrate();
      setDbHandle(handle);
      const { account, token } = await createBenchAccount();
      const number = await call(putNumber, {
        method: "PUT",
        path: "/v1/config/number",
        token,
        body: {
          provider: "cloud",
          phone_number: "+14155552671",
          phone_number_id: network.phoneNumberId,
          business_account_id: network.businessAccountId,
          access_token: "EAAG-bench-campaign",
          app_secret: APP_SECRET,
          verify_token: "bench-verify",
          api_base_url: network.apiBaseUrl,
        },
      });
      if (number.status !== 200) throw new Error(`number: ${number.text}`);
      const now = new Date();
      await getDb().insert(messageTemplates).values({
        id: newId("template", now),
        accountId: account.id,
        name: "spring_catalogue",
        language: "en_US",
        category: "MARKETING",
        components: { body: { text: "Hi {{1}}, the spring catalogue is here." } },
        status: "APPROVED",
        createdAt: now,
        updatedAt: now,
      });
      network.templates.set("spring_catalogue:en_US", {
        id: "bench-template-1",
        name: "spring_catalogue",
        language: "en_US",
        category: "MARKETING",
        components: [{ type: "BODY", text: "Hi {{1}}, the spring catalogue is here.", example: { body_text: [["Ana"]] } }],
        status: "APPROVED",
      });
      log(`seeding ${size.recipients.toLocaleString("en-US")} contacts…`);
      await getDb().execute(sql`
        insert into contacts (id, account_id, phone, name, marketing_opt_in, attributes, created_at, updated_at)
        select 'ctc_bench' || lpad(i::text, 17, '0'), ${account.id}, (34600000000 + i)::text, 'Customer ' || i,
          i > ${size.optedOut}, '{"list":"spring"}'::jsonb, now(), now()
        from generate_series(1, ${size.recipients + size.optedOut}) as i`);
      const created = await call(createCampaign, {
        method: "POST",
        path: "/v1/campaigns",
        token,
        body: { name: "Spring", template: { name: "spring_catalogue", language: "en_US", variables: [{ source: "contact.name" }] }, audience: { attributes: { list: "spring" } } },
      });
      if (created.status !== 201) throw new Error(`campaign: ${created.text}`);
      const campaignId = created.body.id as string;
      const eligible = size.recipients;
      const scheduled = await call(scheduleCampaign, { method: "POST", path: `/v1/campaigns/${campaignId}/schedule`, token, body: {}, params: { id: campaignId } });
      if (scheduled.status !== 200) throw new Error(`schedule: ${scheduled.text}`);
      await closeDb();

      // The statuses the network has still to post (or post again), and those posted and not yet answered.
      const unreported: AcceptedMessage[] = [];
      const posted = new Map<number, AcceptedMessage[]>();
      let notifications = 0;
      let statusesAnswered = 0;
      let statusesApplied = 0;
      let server: ChildProcess | undefined;
      const notifier = setInterval(() => {
        if (!server?.connected || !unreported.length || posted.size >= 2) return;
        const batch = unreported.splice(0, STATUSES_PER_NOTIFICATION);
        const id = ++notifications;
        const rawBody = JSON.stringify(
          buildInboundPayload({
            phoneNumberId: network.phoneNumberId,
            businessAccountId: network.businessAccountId,
            statuses: batch.map((m) => ({ id: m.id, status: "sent", recipientId: m.to, ...(m.callbackData ? { callbackData: m.callbackData } : {}) })),
          }),
        );
        posted.set(id, batch);
        server.send({ type: "notify", id, rawBody, signature: signHubPayload({ appSecret: APP_SECRET, rawBody }) });
      }, NOTIFY_EVERY_MS);
      const answered = ({ id, status, applied }: Notified) => {
        const batch = posted.get(id);
        if (!batch) return;
        posted.delete(id);
        if (status === 200) {
          statusesAnswered += batch.length;
          statusesApplied += applied;
        } else unreported.unshift(...batch);
      };
      // What a killed server never answered is posted again.
      const requeuePosted = () => {
        for (const batch of posted.values()) unreported.unshift(...batch);
        posted.clear();
      };

      // Arrivals at the network, stamped as they come.
      const templateArrivals: { to: string; at: number }[] = [];
      const agentArrivals = new Map<number, number>();
      let seen = 0;
      const watch = setInterval(() => {
        const list = network.acceptedMessages;
        for (; seen < list.length; seen++) {
          const m = list[seen];
          unreported.push(m);
          if (m.type === "template") templateArrivals.push({ to: m.to, at: Date.now() });
          else {
            const asked = Number(/agent probe (\d+)/.exec(JSON.stringify(m.body))?.[1]);
            // A second arrival of the same send would be a duplicate: its latency counts.
            if (asked) agentArrivals.set(agentArrivals.has(asked) ? asked + 0.5 : asked, Date.now());
          }
        }
      }, 2);

      let last: Status | undefined;
      // Where each server's time went: how long the embedded database was held, and by the campaign.
      const usage = (status: Status | undefined, run: string) => {
        const db = status?.db;
        if (!db || !status.uptimeMs) return;
        const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
        log(`${run}: database held ${s(db.ms + db.yieldingMs)} of ${s(status.uptimeMs)}: campaign ${s(db.yieldingMs)} in ${db.yieldingJobs} jobs (${(db.yieldingMs / Math.max(1, db.yieldingJobs)).toFixed(1)} ms each), the rest ${s(db.ms)} in ${db.jobs} jobs`);
      };
      const probes: (Probe & { run: number })[] = [];
      const startWorker = () => {
        const child = fork(path.join(import.meta.dirname, "campaign-worker.ts"), [], {
          // A server process resolves "server-only" as the server bundle does (its react-server export is empty).
          // CAMPAIGN_BENCH_CPU_PROF=<folder>: each server process writes a CPU profile there as it exits (not when killed).
          execArgv: [...process.execArgv, "--conditions=react-server", ...(process.env.CAMPAIGN_BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.CAMPAIGN_BENCH_CPU_PROF}`] : [])],
          stdio: ["ignore", "ignore", "inherit", "ipc"],
          env: { ...process.env, PGLITE_DIR: dataDir, CAMPAIGN_ID: campaignId, TOKEN: token, AGENT_TO: "14155550100" },
        });
        const run = workers.length;
        child.on("message", (message: Status | Probe | Notified) => {
          if (message.type === "probe") probes.push({ ...message, run });
          else if (message.type === "notified") answered(message);
          else last = message;
        });
        workers.push(child);
        server = child;
        return child;
      };
      const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));
      const deadline = Date.now() + (eligible / PACE) * 1000 * 5 + (smoke ? 240_000 : 300_000);
      const waitFor = async (done: () => boolean, what: string) => {
        while (!done()) {
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (${templateArrivals.length} sent, campaign ${JSON.stringify(last)}, ${agentArrivals.size} agent sends)`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };

      log("first run…");
      const first = startWorker();
      const killAt = Math.floor(eligible * 0.4);
      await waitFor(() => templateArrivals.length >= killAt, `${killAt} sends`);
      first.kill("SIGKILL");
      const killedAt = Date.now();
      await exited(first);
      requeuePosted();
      const beforeKill = templateArrivals.length;
      usage(last, "first run");
      log(`killed with SIGKILL after ${beforeKill} sends; restarting…`);
      last = undefined;
      const second = startWorker();
      await waitFor(() => last?.status === "done", "the campaign to finish");
      // Every message the network accepted has had its status posted and answered.
      await waitFor(() => seen === network.acceptedMessages.length && !unreported.length && !posted.size, "the network's statuses to be answered");
      usage(last, "second run");
      const stoppedAt = Date.now();
      second.send({ type: "stop" });
      await exited(second);
      clearInterval(watch);
      clearInterval(notifier);

      // Rates of each run, from its first send to its last (the restart's gap excluded).
      const rate = (list: { at: number }[]) => (list.length > 1 ? (list.length - 1) / ((list.at(-1)!.at - list[0].at) / 1000) : 0);
      const firstRun = templateArrivals.slice(0, beforeKill);
      const secondRun = templateArrivals.slice(beforeKill).filter((a) => a.at > killedAt);
      const rates = [rate(firstRun), rate(secondRun)];
      const perPhone = new Map<string, number>();
      for (const a of templateArrivals) perPhone.set(a.to, (perPhone.get(a.to) ?? 0) + 1);
      const duplicates = [...perPhone.values()].filter((n) => n > 1).length;
      // An agent's message the network received twice (a send repeated after the kill).
      const agentDuplicates = [...agentArrivals.keys()].filter((asked) => !Number.isInteger(asked)).length;

      const reopened = openPglite(newPglite(dataDir));
      setDbHandle(reopened);
      const counts = rowsOf<{ status: string; reason: string | null; n: string | number }>(
        await getDb().execute(sql`select status, reason, count(*) as n from campaign_recipients where campaign_id = ${campaignId} group by status, reason`),
      );
      const count = (status: string, reason?: string) => counts.filter((c) => c.status === status && (reason === undefined || c.reason === reason)).reduce((sum, c) => sum + Number(c.n), 0);
      const interrupted = count("failed", "interrupted");
      const accounted = perPhone.size + interrupted === eligible && count("sent") === perPhone.size;
      // The agent: each send asked of a live server, by when it reached the network.
      const arrivedAt = (asked: number) => agentArrivals.get(asked);
      const acrossKill = [...agentArrivals].filter(([asked, at]) => asked < killedAt && at > killedAt).map(([asked, at]) => at - asked);
      const agentLatencies = [...agentArrivals].filter(([asked, at]) => !(asked < killedAt && at > killedAt)).map(([asked, at]) => at - asked);
      const refused = probes.filter((p) => p.status !== 201);
      // Accepted, yet never at the network (those asked in the last seconds before the stop may still be queued).
      // An agent's message whose send the kill cut short is failed `interrupted` (shown to the agent, never sent twice): not lost.
      const interruptedProbes = new Set(
        rowsOf<{ text: string }>(
          await getDb().execute(sql`select text from messages where text like 'agent probe %' and status = 'failed' and error ->> 'code' = 'interrupted'`),
        ).map((r) => Number(/agent probe (\d+)/.exec(r.text)?.[1])),
      );
      const lost = probes.filter((p) => p.status === 201 && arrivedAt(p.asked) === undefined && !interruptedProbes.has(p.asked) && p.asked < stoppedAt - 10_000).length;
      const answers = probes.map((p) => p.answeredMs);
      const agentP99 = agentLatencies.length ? percentile(agentLatencies, 99) : Infinity;
      // When the slowest sends were asked (seconds into the benchmark's first run) and how long the API took to answer them.
      const firstAsked = Math.min(...agentArrivals.keys());
      const answerOf = new Map(probes.map((p) => [p.asked, p.answeredMs]));
      const slowest = [...agentArrivals].sort((a, b) => b[1] - b[0] - (a[1] - a[0])).slice(0, 8);
      log(`slowest agent sends (asked at s: total / answer ms): ${slowest.map(([asked, at]) => `${((asked - firstAsked) / 1000).toFixed(0)}: ${at - asked} / ${answerOf.get(asked) ?? "?"}`).join(", ")}`);
      const agentOk = agentP99 < GOAL_AGENT_P99_MS && refused.length === 0 && lost === 0 && agentDuplicates === 0;
      const withinPace = rates.every((r) => Math.abs(r - PACE) / PACE <= GOAL_RATE_TOLERANCE);
      return {
        name: "campaign-10k",
        goal: `each run sustains ${PACE}/s ±${GOAL_RATE_TOLERANCE * 100} %, 0 duplicates after kill -9 and restart, every consenting recipient sent once (or failed interrupted), agent send to the network p99 < ${GOAL_AGENT_P99_MS} ms while it runs, none refused, lost or sent twice`,
        recipients: eligible + size.optedOut,
        eligible,
        sent: count("sent"),
        // Distinct recipients the network received: `sent` as well once their statuses are answered
        // (a recipient whose send's answer the kill cut short is counted from its status).
        reached_network: perPhone.size,
        skipped: count("skipped"),
        interrupted,
        // The `sent` statuses the network posted and the servers answered (one per message it accepted).
        statuses_answered: statusesAnswered,
        // Of those, the ones that moved a message: each a message the network took whose send's own
        // record had not come (cut short by the kill, or not yet written), recorded from its status.
        recorded_from_statuses: statusesApplied,
        killed_after: beforeKill,
        rate_per_s: rates.map((r) => round(r, 1)),
        duplicates,
        agent_sends: agentLatencies.length,
        agent_p50_ms: agentLatencies.length ? round(percentile(agentLatencies, 50), 0) : null,
        agent_p99_ms: agentLatencies.length ? round(agentP99, 0) : null,
        agent_max_ms: agentLatencies.length ? round(Math.max(...agentLatencies), 0) : null,
        agent_answer_p99_ms: answers.length ? round(percentile(answers, 99), 0) : null,
        agent_refused: refused.length,
        agent_lost: lost,
        agent_duplicates: agentDuplicates,
        agent_interrupted: interruptedProbes.size,
        agent_across_kill: acrossKill.length,
        agent_across_kill_max_ms: acrossKill.length ? round(Math.max(...acrossKill), 0) : null,
        pass: smoke ? true : withinPace && duplicates === 0 && accounted && agentOk,
        ...(smoke ? { would_pass: withinPace && duplicates === 0 && accounted && agentOk } : {}),
      };
    } finally {
      for (const child of workers) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await closeDb();
      await network.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (insecure === undefined) delete process.env.WEBHOOK_ALLOW_INSECURE_TARGETS;
      else process.env.WEBHOOK_ALLOW_INSECURE_TARGETS = insecure;
      resetEnvCache();
    }
  },
};
