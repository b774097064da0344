"use server";

import { updateAssistantConfig } from "@/lib/assistant/settings";
import { assistantConfigInput } from "@/lib/assistant/schemas";
import { action } from "@/lib/server/action";

export const saveAssistantConfigAction = action({ role: "admin", schema: assistantConfigInput, revalidate: "/settings/assistant" }, (input, ctx) =>
  updateAssistantConfig({ ctx, input }),
);
