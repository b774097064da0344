import { auditChange } from "@/lib/audit/record-audit";
import type { Executor } from "@/db";
import { inboxSettings } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import type { InboxSettingsInput, InboxSettingsOutput } from "./inbox-settings-schemas";
import { findInboxSettings, upsertInboxSettings } from "./store";

const defaults: InboxSettingsOutput = { auto_assign_on_reply: true, send_read_receipts: true, send_typing_indicator: true };

const present = (row: typeof inboxSettings.$inferSelect): InboxSettingsOutput => ({
  auto_assign_on_reply: row.autoAssignOnReply,
  send_read_receipts: row.sendReadReceipts,
  send_typing_indicator: row.sendTypingIndicator,
});

/** The account's inbox settings; an account that never saved them has the defaults. */
export async function loadInboxSettings(executor: Executor, accountId: string): Promise<InboxSettingsOutput> {
  const row = await findInboxSettings(executor, { accountId });
  return row ? present(row) : defaults;
}

export async function getInboxSettings({ ctx }: { ctx: ServiceContext }) {
  return loadInboxSettings(ctx.db, ctx.accountId);
}

/** Saves the settings; a setting left out of the body keeps its value. */
export async function updateInboxSettings({ ctx, input }: { ctx: ServiceContext; input: InboxSettingsInput }): Promise<InboxSettingsOutput> {
  const now = new Date();
  const set = {
    autoAssignOnReply: input.auto_assign_on_reply,
    ...(input.send_read_receipts !== undefined ? { sendReadReceipts: input.send_read_receipts } : {}),
    ...(input.send_typing_indicator !== undefined ? { sendTypingIndicator: input.send_typing_indicator } : {}),
    updatedAt: now,
  };
  const row = await upsertInboxSettings(ctx.db, { accountId: ctx.accountId, set });
  await auditChange(ctx, "settings.inbox_updated", { type: "account", id: ctx.accountId });
  return present(row);
}
