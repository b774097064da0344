// `npm run bench [name]`: runs every benchmark below, or the one named, each on its own
// in-memory database, printing one JSON line of results per benchmark on stdout.
import "./env";
import type { Bench } from "./support";

// To add a benchmark: write bench/<topic>.ts exporting a Bench, and list it here.
const benches: Record<string, () => Promise<Bench>> = {
  conversations: async () => (await import("./conversations")).conversationsBench,
  "inbox-latency": async () => (await import("./inbox-latency")).inboxLatencyBench,
  search: async () => (await import("./search")).searchBench,
  webhooks: async () => {
    const { run } = await import("./webhooks");
    return {
      name: "webhook-fan-out",
      description: "2,000 events to 5 local receivers through the local runner: deliveries per second, first-attempt latency",
      run: async () => ({ name: "webhook-fan-out", ...(await run()) }),
    };
  },
};

async function main() {
  // Flags such as --smoke are read by the benchmarks themselves.
  const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
  const unknown = wanted.filter((name) => !(name in benches));
  if (unknown.length) {
    console.error(`Unknown benchmark ${unknown.join(", ")}. Available: ${Object.keys(benches).join(", ")}.`);
    process.exit(2);
  }
  const { closeDb } = await import("@/db");
  for (const name of wanted.length ? wanted : Object.keys(benches)) {
    const bench = await benches[name]();
    process.stderr.write(`\n${bench.name}: ${bench.description}\n`);
    const result = await bench.run();
    console.log(JSON.stringify(result));
  }
  await closeDb();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
