// `npm run bench [name…] [-- --smoke]`: runs every benchmark below, or those named, each on
// its own database, printing one JSON line of results per benchmark on stdout, each with its
// `goal` and whether it was met (`pass`). `--smoke` runs them all at tiny sizes (CI: none
// may rot); its numbers mean nothing and its `pass` only says that the benchmark ran.
import "./env";
import type { Bench } from "./support";

// To add a benchmark: write bench/<topic>.ts exporting a Bench, and list it here.
const benches: Record<string, () => Promise<Bench>> = {
  "webhook-fan-out": async () => (await import("./webhooks")).fanOutBench,
  "webhook-fan-out-postgres": async () => (await import("./webhooks")).fanOutPostgresBench,
  "webhook-steady": async () => (await import("./webhooks")).steadyBench,
  "webhook-fairness": async () => (await import("./webhooks")).fairnessBench,
  "api-overhead": async () => (await import("./api")).apiBench,
  conversations: async () => (await import("./conversations")).conversationsBench,
  "inbox-latency": async () => (await import("./inbox-latency")).inboxLatencyBench,
  search: async () => (await import("./search")).searchBench,
  soak: async () => (await import("./soak")).soakBench,
  "db-outage": async () => (await import("./db-outage")).dbOutageBench,
  "lighthouse-inbox-mobile": async () => (await import("./lighthouse")).lighthouseBench,
  "campaign-10k": async () => (await import("./campaigns")).campaignBench,
  "automations-overhead": async () => (await import("./automations")).automationsBench,
  "conversation-open": async () => (await import("./conversation-view")).conversationOpenBench,
  "long-thread": async () => (await import("./conversation-view")).longThreadBench,
  "overload-200": async () => (await import("./overload")).overloadBench,
  "idle-rss": async () => (await import("./overload")).idleRssBench,
  "search-1m": async () => (await import("./search")).search1mBench,
  "reports-1m": async () => (await import("./reports")).reports1mBench,
  "cold-start": async () => (await import("./cold-start")).coldStartBench,
  "event-clients-500": async () => (await import("./event-clients")).eventClientsBench,
  "inbox-bundle": async () => (await import("./bundle")).inboxBundleBench,
  "inbox-list-20k": async () => (await import("./scale")).inboxList20kBench,
};

async function main() {
  const args = process.argv.slice(2);
  const smoke = args.includes("--smoke");
  const wanted = args.filter((arg) => arg !== "--smoke");
  const unknown = wanted.filter((name) => !(name in benches));
  if (unknown.length) {
    console.error(`Unknown benchmark ${unknown.join(", ")}. Available: ${Object.keys(benches).join(", ")}.`);
    process.exit(2);
  }
  const { closeDb } = await import("@/db");
  let failed = 0;
  for (const name of wanted.length ? wanted : Object.keys(benches)) {
    const bench = await benches[name]();
    process.stderr.write(`\n${bench.name}${smoke ? " (smoke)" : ""}: ${bench.description}\n`);
    try {
      const result = await bench.run({ smoke });
      console.log(JSON.stringify(smoke ? { ...result, smoke: true } : result));
    } catch (error) {
      // A benchmark that cannot run is a failure in smoke mode (it has rotted); otherwise the others still run.
      failed++;
      console.error(error);
      console.log(JSON.stringify({ name: bench.name, error: error instanceof Error ? error.message : String(error), pass: false }));
    }
  }
  await closeDb();
  process.exit(smoke && failed ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
