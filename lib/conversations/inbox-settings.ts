import { auditChange } from "@/lib/audit/record-audit";
import { eq } from "drizzle-orm";
import { type Executor, getDb } from "@/db";
import { inboxSettings } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import type { InboxSettingsInput, InboxSettingsOutput } from "./inbox-settings-schemas";

const defaults: InboxSettingsOutput = { auto_assign_on_reply: true };

/** The account's inbox settings; an account that never saved them has the defaults. */
export async function loadInboxSettings(executor: Executor, accountId: string): Promise<InboxSettingsOutput> {
  const [row] = await executor.select().from(inboxSettings).where(eq(inboxSettings.accountId, accountId)).limit(1);
  return row ? { auto_assign_on_reply: row.autoAssignOnReply } : defaults;
}

export async function getInboxSettings({ ctx }: { ctx: ServiceContext }) {
  return loadInboxSettings(getDb(), ctx.accountId);
}

export async function updateInboxSettings({ ctx, input }: { ctx: ServiceContext; input: InboxSettingsInput }): Promise<InboxSettingsOutput> {
  const now = new Date();
  const [row] = await getDb()
    .insert(inboxSettings)
    .values({ accountId: ctx.accountId, autoAssignOnReply: input.auto_assign_on_reply, updatedAt: now })
    .onConflictDoUpdate({ target: inboxSettings.accountId, set: { autoAssignOnReply: input.auto_assign_on_reply, updatedAt: now } })
    .returning();
  await auditChange(ctx, "settings.inbox_updated", { type: "account", id: ctx.accountId });
  return { auto_assign_on_reply: row.autoAssignOnReply };
}
