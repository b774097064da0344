import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startReceiver } from "@/tests/support/webhook-receiver";
import { type LiveServer, setUpAccount, slopePerMinute, startLiveServer } from "./live-server";
import { type Bench, type BenchOptions, log, percentile, round } from "./support";

const PORT = Number(process.env.BENCH_SOAK_PORT ?? 3713);
// The reliability figures for a soak with malformed traffic mixed in.
const GOAL = { p99Ms: 1_000, worstHealthzMs: 1_000, rssSlopeMiBPerMin: 5, idleRssMiB: 400 };

type Sample = { ms: number; status: number };

async function timed(url: string, init?: RequestInit): Promise<Sample> {
  const started = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    await res.arrayBuffer();
    return { ms: performance.now() - started, status: res.status };
  } catch {
    return { ms: performance.now() - started, status: 0 };
  }
}

/** Runs `work` again and again until `until`, `every` ms apart (or back to back when it is slower). */
async function loop(until: number, every: number, work: (n: number) => Promise<void>) {
  for (let n = 0; performance.now() < until; n++) {
    const started = performance.now();
    await work(n);
    const wait = every - (performance.now() - started);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
}

/**
 * The server on an embedded database in a folder, for 10 minutes (30 s in smoke): inbound
 * messages (each a webhook delivery to a local receiver), inbox reads, malformed requests and a
 * liveness probe every 100 ms, together. Reports good requests' p99, the worst /healthz answer,
 * resident memory at idle and its slope over the run, errors, and deliveries lost or repeated.
 */
export const soakBench: Bench = {
  name: "soak",
  description: "10 minutes of mixed traffic (writes, reads, malformed requests, liveness probes) on the production server: p99, /healthz stalls, memory slope, lost and repeated webhook deliveries",
  async run({ smoke }: BenchOptions) {
    // BENCH_SOAK_SECONDS shortens (or lengthens) a full run, e.g. while looking for a leak.
    const durationMs = smoke ? 30_000 : Number(process.env.BENCH_SOAK_SECONDS ?? 600) * 1000;
    const dir = mkdtempSync(path.join(tmpdir(), "chorus-soak-"));
    const receiver = await startReceiver();
    let server: LiveServer | undefined;
    try {
      server = await startLiveServer(PORT, { PGLITE_DIR: path.join(dir, "pglite"), JOBS_POLL_MS: "200", WEBHOOK_ALLOW_INSECURE_TARGETS: "true" });
      await new Promise((r) => setTimeout(r, 5_000));
      const idleRssMiB = server.rssMiB();
      const { base } = server;
      const token = await setUpAccount(base);
      const auth = { authorization: `Bearer ${token}` };
      const hook = await fetch(`${base}/v1/webhooks`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ url: receiver.url, events: ["message.received"] }),
      });
      if (hook.status !== 201) throw new Error(`webhook create answered ${hook.status}: ${await hook.text()}`);
      log(`soak: ${durationMs / 1000} s, idle RSS ${round(idleRssMiB, 1)} MiB`);

      const started = performance.now();
      const until = started + durationMs;
      const good: Sample[] = [];
      const healthz: Sample[] = [];
      const malformed: Sample[] = [];
      const rss: { atMs: number; mib: number }[] = [];
      let acknowledged = 0;
      const live = server;
      await Promise.all([
        loop(until, 100, async () => void healthz.push(await timed(`${base}/healthz`))),
        loop(until, 5_000, async () => void rss.push({ atMs: performance.now() - started, mib: live.rssMiB() })),
        // Writers: inbound messages from 20 customers, each acknowledged one a delivery to come.
        ...[0, 1].map((w) =>
          loop(until, 150, async (n) => {
            const sample = await timed(`${base}/api/sandbox/inbound`, {
              method: "POST",
              headers: { ...auth, "content-type": "application/json" },
              body: JSON.stringify({ from: `1555010${String((n * 2 + w) % 20).padStart(4, "0")}`, name: "Soak Customer", type: "text", text: `soak message ${w}-${n}` }),
            });
            good.push(sample);
            if (sample.status === 201) acknowledged++;
          }),
        ),
        // Readers: the inbox list, as agents' browsers poll it.
        ...[0, 1].map(() => loop(until, 100, async () => void good.push(await timed(`${base}/v1/conversations?limit=20`, { headers: auth })))),
        // Malformed traffic: broken JSON, wrong types, unknown paths, a bad token.
        loop(until, 150, async (n) => {
          const kinds: [string, RequestInit][] = [
            ["/v1/messages", { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: '{"to": "1555' }],
            ["/v1/messages", { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ to: 42, type: ["text"] }) }],
            ["/v1/no-such-thing/%zz", { headers: auth }],
            ["/v1/conversations?limit=-1&cursor=garbage", { headers: auth }],
            ["/v1/conversations", { headers: { authorization: "Bearer not-a-token" } }],
            ["/api/network/webhook", { method: "POST", headers: { "content-type": "application/json", "x-hub-signature-256": "sha256=00" }, body: '{"object":"whatsapp_business_account","entry":[' }],
          ];
          const [target, init] = kinds[n % kinds.length];
          malformed.push(await timed(base + target, init));
        }),
      ]);
      const elapsedMin = (performance.now() - started) / 60_000;

      // Every acknowledged message's delivery, given time to arrive.
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && new Set(receiver.deliveries().map((d) => d.json?.id)).size < acknowledged) await new Promise((r) => setTimeout(r, 250));
      const deliveries = receiver.deliveries();
      const unique = new Set(deliveries.map((d) => d.json?.id)).size;
      const errors = good.filter((s) => s.status === 0 || s.status >= 500).length + malformed.filter((s) => s.status === 0 || s.status >= 500).length;
      const p99 = percentile(good.map((s) => s.ms), 99);
      const worstHealthz = Math.max(...healthz.map((s) => s.ms));
      // Memory after the first minute (start-up caches filled) is what must stay flat.
      const settled = rss.filter((s) => s.atMs >= Math.min(60_000, durationMs / 3));
      const slope = slopePerMinute(settled);
      const result = {
        name: "soak",
        minutes: round(elapsedMin, 2),
        requests: good.length + malformed.length + healthz.length,
        good_requests: good.length,
        malformed_requests: malformed.length,
        p50_ms: round(percentile(good.map((s) => s.ms), 50), 1),
        p99_ms: round(p99, 1),
        healthz_p99_ms: round(percentile(healthz.map((s) => s.ms), 99), 1),
        worst_healthz_ms: round(worstHealthz, 1),
        idle_rss_mib: round(idleRssMiB, 1),
        final_rss_mib: round(rss.at(-1)?.mib ?? 0, 1),
        rss_slope_mib_per_min: round(slope, 2),
        errors,
        acknowledged_writes: acknowledged,
        deliveries_lost: Math.max(0, acknowledged - unique),
        deliveries_duplicated: deliveries.length - unique,
        goal: `p99 < ${GOAL.p99Ms} ms, worst /healthz < ${GOAL.worstHealthzMs} ms, idle RSS <= ${GOAL.idleRssMiB} MiB, RSS slope <= ${GOAL.rssSlopeMiBPerMin} MiB/min, 0 errors (5xx or no answer), 0 lost and 0 repeated deliveries`,
      };
      const pass = smoke
        ? good.length > 0 && acknowledged > 0
        : p99 < GOAL.p99Ms &&
          worstHealthz < GOAL.worstHealthzMs &&
          idleRssMiB <= GOAL.idleRssMiB &&
          slope <= GOAL.rssSlopeMiBPerMin &&
          errors === 0 &&
          result.deliveries_lost === 0 &&
          result.deliveries_duplicated === 0;
      return { ...result, pass };
    } finally {
      await server?.stop();
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
