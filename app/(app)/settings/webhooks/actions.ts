"use server";
import "@/lib/server/wiring";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { zodDetails } from "@/lib/platform/errors";
import { requireAdmin } from "@/lib/auth/current-user";
import { ApiError } from "@/lib/platform/errors";
import { createWebhook } from "@/lib/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/webhooks/delete-webhook";
import { redeliver } from "@/lib/webhooks/redeliver";
import { createWebhookInput, updateWebhookInput } from "@/lib/webhooks/schemas";
import { updateWebhook } from "@/lib/webhooks/update-webhook";
import { verifyWebhook } from "@/lib/webhooks/verify-webhook";

export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; code: string; message: string; fieldErrors: Record<string, string> };

/**
 * Every action re-checks that the signed-in user is an administrator (an agent gets a 403
 * result), then calls the same verb as the API, so both answer the same way.
 */
async function run<T>(work: (ctx: Awaited<ReturnType<typeof requireAdmin>>) => Promise<T>): Promise<ActionResult<T>> {
  try {
    const session = await requireAdmin();
    const data = await work(session);
    revalidatePath("/settings/webhooks", "layout");
    return { ok: true, data };
  } catch (error) {
    if (error instanceof z.ZodError) {
      const details = zodDetails(error);
      return { ok: false, status: 400, code: "validation_error", message: "Check the highlighted fields.", fieldErrors: fieldErrors(details) };
    }
    if (error instanceof ApiError) {
      return { ok: false, status: error.status, code: error.code, message: error.message, fieldErrors: fieldErrors(error.details ?? []) };
    }
    // Redirects (signed out) and real failures go on to Next.js.
    throw error;
  }
}

function fieldErrors(details: { path: string; message: string }[]) {
  const out: Record<string, string> = {};
  for (const d of details) {
    const key = d.path.split(".")[0];
    out[key] ??= d.message;
  }
  return out;
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
