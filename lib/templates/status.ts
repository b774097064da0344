import type { SystemContext } from "@/lib/auth/context";
import type { TemplateStatusUpdate } from "@/lib/network/types";
import { setTemplateStatus } from "./templates";
import { findCloudAccountIdsOfBusinessAccount, findTemplateRow, findTemplatesNamedByUpdate } from "./store";
import { z } from "zod";
import { defineJob, type PayloadOf } from "@/lib/jobs/define";

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
  const accountIds = await findCloudAccountIdsOfBusinessAccount(db, { businessAccountId });
  if (accountIds.length === 0) return;
  const templates = await findTemplatesNamedByUpdate(db, { accountIds, networkTemplateId: update.networkTemplateId, name: update.name, language: update.language });
  for (const template of templates) {
    const reason = update.event === "DISABLED" ? `Disabled by the network${update.reason ? `: ${update.reason}` : "."}` : update.reason;
    await db.transaction((tx) => setTemplateStatus({ ...ctx, db: tx }, { accountId: template.accountId, id: template.id, status, reason }));
  }
}

/** The sandbox's review (job `template.simulate-review`): REJECTED when the body contains "REJECT", else APPROVED. */
async function simulateTemplateReview(ctx: SystemContext, { templateId }: { templateId: string }) {
  const db = ctx.db;
  const row = await findTemplateRow(db, { id: templateId });
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
