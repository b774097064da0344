import { eq } from "drizzle-orm";
import * as collection from "@/app/v1/webhooks/route";
import { getDb } from "@/db";
import { webhookDeliveries, webhooks } from "@/db/schema";
import { recordEvent } from "@/lib/events/record-event";
import type { EventType } from "@/lib/events/types";
import { jobRegistry } from "@/lib/server/job-registry";
import { drainJobs } from "@/lib/jobs/runner";
import { call } from "./api";
import { systemContext } from "@/lib/server/context";

/** Registers a webhook through the API (challenge included); returns the 201 body. */
export async function registerWebhook(token: string, body: { url: string; events: string[]; secret?: string }) {
  const res = await call(collection.POST, { method: "POST", path: "/v1/webhooks", token, body });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  return res.body as { id: string; url: string; events: string[]; secret: string; status: string };
}

/** Records an event the way every domain verb does, in its own transaction. */
export async function emit(accountId: string, type: EventType = "message.received", data: Record<string, unknown> = { message: { id: "msg_test", text: "hi" } }) {
  return getDb().transaction((tx) => recordEvent({ ...systemContext(), db: tx }, { accountId, type, data }));
}

/**
 * Runs due jobs on a clock `aheadMs` ahead of real time (0 = now) until none is left,
 * including retries that become due while it runs (a schedule of 0 s).
 */
export async function drain(aheadMs = 0) {
  let total = 0;
  for (let round = 0; round < 100; round++) {
    const ran = await drainJobs(systemContext(), jobRegistry, { now: new Date(Date.now() + aheadMs) });
    if (ran === 0) break;
    total += ran;
  }
  return total;
}

export async function deliveriesOf(webhookId: string) {
  return getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId)).orderBy(webhookDeliveries.createdAt, webhookDeliveries.id);
}

export async function webhookRow(id: string) {
  const [row] = await getDb().select().from(webhooks).where(eq(webhooks.id, id));
  return row;
}
