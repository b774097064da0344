"use server";

import { revalidatePath } from "next/cache";
import { requireSession } from "@/lib/server/session";
import { saveNotificationPreferences } from "@/lib/push/preferences";
import { notificationPreferencesInput, type NotificationPreferencesInput } from "@/lib/push/schemas";
import { runAction } from "@/lib/server/action";

export async function saveNotificationPreferencesAction(input: NotificationPreferencesInput) {
  return runAction(async () => {
    const ctx = await requireSession();
    const saved = await saveNotificationPreferences({ ctx, input: notificationPreferencesInput.parse(input) });
    revalidatePath("/settings/notifications");
    return saved;
  });
}
