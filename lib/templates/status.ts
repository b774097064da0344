import { and, eq, inArray, or } from "drizzle-orm";
import type { Executor } from "@/db";
import type { SystemContext } from "@/lib/auth/context";
import { messageTemplates, numberIntegrations } from "@/db/schema";
import type { TemplateStatusUpdate } from "@/lib/network/types";
import { setTemplateStatus } from "./templates";
import { z } from "zod";
import { defineJob, type PayloadOf } from "@/lib/jobs/define";

/** The phone_number_ids of the cloud numbers of these business accounts (whose app secret signs template notifications). */
export async function phoneNumberIdsOfBusinessAccounts(db: Executor, businessAccountIds: string[]): Promise<string[]> {
  const rows = await db
    .select({ phoneNumberId: numberIntegrations.phoneNumberId })
    .from(numberIntegrations)
    .where(and(eq(numberIntegrations.provider, "cloud"), inArray(numberIntegrations.businessAccountId, businessAccountIds)));
  return rows.map((row) => row.phoneNumberId).filter((id): id is string => Boolean(id));
}

// The network's review events; DISABLED (after quality problems) means it can no longer be sent.
const statusOfEvent: Record<string, "PENDING" | "APPROVED" | "REJECTED"> = {
  PENDING: "PENDING",
  APPROVED: "APPROVED",
  REJECTED: "REJECTED",
  DISABLED: "REJECTED",
};

/** Applies a `message_template_status_update` to the template it names (by network id, else name and language). */
export async function applyTemplateStatus(ctx: SystemContext, { businessAccountId, update }: { businessAccountId: string; update: TemplateStatusUpdate }) {
  const status = statusOfEvent[update.event];
  if (!status) {
    console.warn(`network webhook: ignored template event ${update.event.replace(/[^\w-]/g, "?").slice(0, 40)}`);
    return;
  }
  const db = ctx.db;
  const accounts = await db
    .select({ accountId: numberIntegrations.accountId })
    .from(numberIntegrations)
    .where(and(eq(numberIntegrations.provider, "cloud"), eq(numberIntegrations.businessAccountId, businessAccountId)));
  if (accounts.length === 0) return;
  // The network sends its template id as a JSON number, which can exceed what a double holds
  // exactly: name and language identify the template as well.
  const byId = update.networkTemplateId ? eq(messageTemplates.networkTemplateId, update.networkTemplateId) : undefined;
  const byName = update.name && update.language ? and(eq(messageTemplates.name, update.name), eq(messageTemplates.language, update.language)) : undefined;
  const byTemplate = byId && byName ? or(byId, byName) : (byId ?? byName);
  if (!byTemplate) return;
  const templates = await db
    .select({ id: messageTemplates.id, accountId: messageTemplates.accountId })
    .from(messageTemplates)
    .where(and(inArray(messageTemplates.accountId, accounts.map((a) => a.accountId)), byTemplate));
  for (const template of templates) {
    const reason = update.event === "DISABLED" ? `Disabled by the network${update.reason ? `: ${update.reason}` : "."}` : update.reason;
    await db.transaction((tx) => setTemplateStatus({ ...ctx, db: tx }, { accountId: template.accountId, id: template.id, status, reason }));
  }
}

/** The sandbox's review (job `template.simulate-review`): REJECTED when the body contains "REJECT", else APPROVED. */
async function simulateTemplateReview(ctx: SystemContext, { templateId }: { templateId: string }) {
  const db = ctx.db;
  const [row] = await db.select().from(messageTemplates).where(eq(messageTemplates.id, templateId)).limit(1);
  if (!row || row.status !== "PENDING") return;
  const rejected = row.components.body.text.includes("REJECT");
  await db.transaction((tx) =>
    setTemplateStatus({ ...ctx, db: tx }, {
      accountId: row.accountId,
      id: row.id,
      status: rejected ? "REJECTED" : "APPROVED",
      reason: rejected ? "The sandbox rejects templates whose body contains REJECT." : null,
    }),
  );
}

/** The sandbox's `template.simulate-review` job: the review a real network would make of a submitted template. */
export const simulateTemplateReviewJob = defineJob({
  kind: "template.simulate-review",
  schema: z.object({ templateId: z.string().min(1) }),
  handler: (payload, job) => simulateTemplateReview(job.system, payload),
});

declare module "@/lib/jobs/define" {
  interface JobPayloads {
    "template.simulate-review": PayloadOf<typeof simulateTemplateReviewJob>;
  }
}
