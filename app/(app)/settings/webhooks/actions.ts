"use server";

import { revalidatePath } from "next/cache";
import { requireAdmin } from "@/lib/server/session";
import { runAction } from "@/lib/server/action";
import { createWebhook } from "@/lib/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/webhooks/delete-webhook";
import { redeliver } from "@/lib/webhooks/redeliver";
import { createWebhookInput, updateWebhookInput } from "@/lib/webhooks/schemas";
import { updateWebhook } from "@/lib/webhooks/update-webhook";
import { verifyWebhook } from "@/lib/webhooks/verify-webhook";

/**
 * Every action re-checks that the signed-in user is an administrator (an agent gets a 403
 * result), then calls the same verb as the API, so both answer the same way.
 */
async function run<T>(work: (ctx: Awaited<ReturnType<typeof requireAdmin>>) => Promise<T>) {
  return runAction(
    async () => {
      const data = await work(await requireAdmin());
      revalidatePath("/settings/webhooks", "layout");
      return data;
    },
    { topLevelFields: true },
  );
}

export async function createWebhookAction(input: unknown) {
  return run((ctx) => createWebhook({ ctx, input: createWebhookInput.parse(input) }));
}

export async function updateWebhookAction(id: string, input: unknown) {
  return run((ctx) => updateWebhook({ ctx, id, input: updateWebhookInput.parse(input) }));
}

export async function verifyWebhookAction(id: string) {
  return run((ctx) => verifyWebhook({ ctx, id }));
}

export async function deleteWebhookAction(id: string) {
  return run(async (ctx) => {
    await deleteWebhook({ ctx, id });
    return { id };
  });
}

export async function redeliverAction(id: string, deliveryId: string) {
  return run((ctx) => redeliver({ ctx, id, deliveryId }));
}
