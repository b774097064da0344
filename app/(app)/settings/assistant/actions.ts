"use server";

import { revalidatePath } from "next/cache";
import { updateAssistantConfig } from "@/lib/assistant/settings";
import { assistantConfigInput } from "@/lib/assistant/schemas";
import { requireAdmin } from "@/lib/server/session";
import { runAction } from "@/lib/server/action";

// Re-checks the role: an agent calling the action directly gets a 403 result.
export async function saveAssistantConfigAction(input: unknown) {
  return runAction(async () => {
    const ctx = await requireAdmin();
    const config = await updateAssistantConfig({ ctx, input: assistantConfigInput.parse(input) });
    revalidatePath("/settings/assistant");
    return config;
  });
}
