"use server";

import { createApp, deleteApp } from "@/lib/oauth/apps";
import { createAppInput } from "@/lib/oauth/schemas";
import { action, formInput, recordId } from "@/lib/server/action";

const page = "/settings/apps";

const appForm = formInput(createAppInput, (form) => ({
  name: String(form.get("name") ?? ""),
  // One redirect address a line (or separated by spaces).
  redirect_uris: String(form.get("redirect_uris") ?? "")
    .split(/\s+/)
    .filter(Boolean),
  allowed_scopes: form.getAll("allowed_scopes").map(String),
  client_type: String(form.get("client_type") ?? "confidential"),
}));

export const createAppAction = action({ role: "admin", schema: appForm, revalidate: page }, (input, ctx) => createApp({ ctx, input }));

export const deleteAppAction = action({ role: "admin", schema: recordId, revalidate: page }, async (id, ctx) => {
  await deleteApp({ ctx, id });
});
