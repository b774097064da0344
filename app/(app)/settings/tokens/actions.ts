"use server";

import { revalidatePath } from "next/cache";
import { createApiToken, revokeApiToken } from "@/lib/auth/api-tokens";
import { createTokenInput, maxTokenExpiry } from "@/lib/auth/token-schemas";
import { requireSession } from "@/lib/server/session";
import { runAction } from "@/lib/server/action";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The expiry picker sends a number of days or a date; the server turns it into expires_at. */
function expiryFrom(form: FormData): string {
  const preset = String(form.get("expires_in_days") ?? "");
  if (preset && preset !== "custom") return new Date(Date.now() + Number(preset) * DAY_MS).toISOString();
  const date = String(form.get("expires_on") ?? "");
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  // The end of the chosen day (UTC) keeps "tomorrow" at least one day away; on the last day
  // allowed, the token lasts until one year from now.
  const max = maxTokenExpiry();
  return date === max.toISOString().slice(0, 10) ? max.toISOString() : `${date}T23:59:59.000Z`;
}

export async function createTokenAction(form: FormData) {
  return runAction(async () => {
    const ctx = await requireSession();
    const input = createTokenInput.parse({
      name: String(form.get("name") ?? ""),
      permissions: form.getAll("permissions").map(String),
      expires_at: expiryFrom(form),
    });
    const created = await createApiToken({ ctx, input });
    revalidatePath("/settings/tokens");
    return created;
  });
}

export async function revokeTokenAction(id: string) {
  return runAction(async () => {
    const ctx = await requireSession();
    await revokeApiToken({ ctx, id });
    revalidatePath("/settings/tokens");
  });
}
