"use server";

import { revalidatePath } from "next/cache";
import { requireAdmin } from "@/lib/server/session";
import { updateCsatConfig } from "@/lib/csat/config";
import { csatConfigInput } from "@/lib/csat/schemas";
import { runAction } from "@/lib/server/action";

// Re-checks the role: an agent calling the action directly gets a 403 result.
export async function saveCsatConfigAction(input: unknown) {
  return runAction(async () => {
    const ctx = await requireAdmin();
    const config = await updateCsatConfig({ ctx, input: csatConfigInput.parse(input) });
    revalidatePath("/settings/survey");
    return config;
  });
}
