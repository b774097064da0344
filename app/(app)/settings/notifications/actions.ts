"use server";

import { saveNotificationPreferences } from "@/lib/push/preferences";
import { notificationPreferencesInput } from "@/lib/push/schemas";
import { action } from "@/lib/server/action";

export const saveNotificationPreferencesAction = action({ schema: notificationPreferencesInput, revalidate: "/settings/notifications" }, (input, ctx) =>
  saveNotificationPreferences({ ctx, input }),
);
