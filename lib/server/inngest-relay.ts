import { inngest } from "@/inngest/client";
import type { AnyJobDefinition, JobContext, JobRegistry } from "@/lib/jobs/define";
import { handOverLocalDeliveries } from "@/lib/jobs/delivery-queue";
import { INNGEST_LANES } from "@/lib/jobs/local-runner";
import { type JobProvider, type LocalProviderOptions, localJobProvider } from "@/lib/jobs/provider";
import { loggable } from "@/lib/platform/errors";

export type InngestEvent = { name: string; data: Record<string, unknown>; id: string };
export type SendEvents = (events: InngestEvent[]) => Promise<unknown>;

/**
 * The event that hands one job row to Inngest. The event id makes a repeated send (the
 * relay died between sending and marking the row done) a no-op: Inngest ignores an event
 * whose id it has seen in the last 24 h.
 */
function jobToInngestEvent(kind: string, payload: Record<string, unknown>, ctx: Pick<JobContext, "jobId" | "createdAt">): InngestEvent {
  if (kind === "webhook.deliver") {
    const deliveryId = String(payload.deliveryId);
    return { name: "chorus/webhook.delivery.requested", data: { deliveryId }, id: `webhook-delivery-${deliveryId}` };
  }
  // Job ids restart with a fresh database; the creation time keeps the event id unique.
  return { name: "chorus/job.requested", data: { jobId: ctx.jobId, kind, payload }, id: `job-${ctx.jobId}-${ctx.createdAt?.getTime() ?? 0}` };
}

/**
 * With JOBS_BACKEND=inngest the runner relays instead of executing (transactional outbox):
 * each due job row (its payload parsed with its kind's schema, as for running it) is sent to
 * Inngest as an event and then marked done; Inngest runs it, with its own retries and sleeps.
 * A failed send throws, so the runner tries again later.
 */
export function inngestRelayJobs(registry: JobRegistry, send: SendEvents = (events) => inngest.send(events)): JobRegistry {
  const relay = (definition: AnyJobDefinition): AnyJobDefinition => ({
    kind: definition.kind,
    schema: definition.schema,
    handler: async (payload, ctx) => {
      await send([jobToInngestEvent(definition.kind, payload, ctx)]);
    },
  });
  return Object.fromEntries(Object.values(registry).map((definition) => [definition.kind, relay(definition)])) as JobRegistry;
}

/**
 * Deliveries begun by a local runner (no job row) get their relay job row. At start, and every
 * minute while servers of both kinds may share the database (a rolling switch to Inngest).
 */
const HAND_OVER_EVERY_MS = 60_000;

/**
 * The Inngest provider: the local runner relays the due job rows to Inngest (the relay rows of
 * webhook deliveries in the webhook lane's place), and the deliveries a local runner began are
 * handed over at start and every minute.
 */
export function inngestJobProvider(options: LocalProviderOptions, send?: SendEvents): JobProvider {
  const relay = localJobProvider({ ...options, name: "inngest", jobs: inngestRelayJobs(options.jobs, send), lanes: INNGEST_LANES, batches: false });
  let timer: NodeJS.Timeout | undefined;
  async function handOver() {
    const handed = await handOverLocalDeliveries(options.system().db);
    if (handed) {
      console.log(`Handing ${handed} pending webhook deliveries to Inngest.`);
      relay.wake();
    }
  }
  return {
    ...relay,
    async start() {
      await handOver();
      timer = setInterval(() => handOver().catch((error) => console.error(`handing deliveries to Inngest failed: ${loggable(error)}`)), HAND_OVER_EVERY_MS);
      timer.unref?.();
      await relay.start();
    },
    async stop() {
      clearInterval(timer);
      await relay.stop();
    },
  };
}
