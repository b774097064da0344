import { inngest } from "@/inngest/client";
import type { JobContext, JobHandler, JobHandlers } from "@/lib/jobs/runner";

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
 * each due job row is sent to Inngest as an event and then marked done; Inngest runs it,
 * with its own retries and sleeps. A failed send throws, so the runner tries again later.
 */
export function inngestRelayHandlers(handlers: JobHandlers, send: SendEvents = (events) => inngest.send(events)): JobHandlers {
  const relay = (kind: string): JobHandler => async (payload, ctx) => {
    await send([jobToInngestEvent(kind, payload, ctx)]);
  };
  return Object.fromEntries(Object.keys(handlers).map((kind) => [kind, relay(kind)])) as JobHandlers;
}
