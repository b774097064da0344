"use server";

import { createApiToken, revokeApiToken } from "@/lib/auth/api-tokens";
import { createTokenInput, maxTokenExpiry } from "@/lib/auth/token-schemas";
import { action, formInput, recordId } from "@/lib/server/action";

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

const page = "/settings/tokens";

const tokenForm = formInput(createTokenInput, (form) => ({
  name: String(form.get("name") ?? ""),
  permissions: form.getAll("permissions").map(String),
  expires_at: expiryFrom(form),
}));

export const createTokenAction = action({ schema: tokenForm, revalidate: page }, (input, ctx) => createApiToken({ ctx, input }));

export const revokeTokenAction = action({ schema: recordId, revalidate: page }, async (id, ctx) => {
  await revokeApiToken({ ctx, id });
});
