"use server";

import { revalidatePath } from "next/cache";
import { requireAdmin } from "@/lib/server/session";
import { updateInboxSettings } from "@/lib/conversations/inbox-settings";
import { inboxSettingsInput } from "@/lib/conversations/inbox-settings-schemas";
import { runAction } from "@/lib/server/action";

export async function updateInboxSettingsAction(input: { auto_assign_on_reply: boolean; send_read_receipts?: boolean; send_typing_indicator?: boolean }) {
  return runAction(async () => {
    const ctx = await requireAdmin();
    const saved = await updateInboxSettings({ ctx, input: inboxSettingsInput.parse(input) });
    revalidatePath("/settings/inbox");
    return saved;
  });
}
