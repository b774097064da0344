"use server";

import { revalidatePath } from "next/cache";
import { requireAdmin } from "@/lib/server/session";
import { createApp, deleteApp } from "@/lib/oauth/apps";
import { createAppInput } from "@/lib/oauth/schemas";
import { runAction } from "@/lib/server/action";

export async function createAppAction(form: FormData) {
  return runAction(async () => {
    const ctx = await requireAdmin();
    const input = createAppInput.parse({
      name: String(form.get("name") ?? ""),
      redirect_uris: String(form.get("redirect_uris") ?? "")
        .split(/\s+/)
        .filter(Boolean),
      allowed_scopes: form.getAll("allowed_scopes").map(String),
      client_type: String(form.get("client_type") ?? "confidential"),
    });
    const app = await createApp({ ctx, input });
    revalidatePath("/settings/apps");
    return app;
  });
}

export async function deleteAppAction(id: string) {
  return runAction(async () => {
    const ctx = await requireAdmin();
    await deleteApp({ ctx, id });
    revalidatePath("/settings/apps");
  });
}
