"use server";

import { updateInboxSettings } from "@/lib/conversations/inbox-settings";
import { inboxSettingsInput } from "@/lib/conversations/inbox-settings-schemas";
import { action } from "@/lib/server/action";

export const updateInboxSettingsAction = action({ role: "admin", schema: inboxSettingsInput, revalidate: "/settings/inbox" }, (input, ctx) => updateInboxSettings({ ctx, input }));
