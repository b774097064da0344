"use server";

import { revalidatePath } from "next/cache";
import { requireAdmin } from "@/lib/server/session";
import { updateBusinessProfile } from "@/lib/profile/business-profile";
import { deleteDocument } from "@/lib/profile/documents";
import { businessProfileInput } from "@/lib/profile/schemas";
import { runAction } from "@/lib/server/action";

// Both re-check the role: an agent calling an action directly gets a 403 result.
export async function saveBusinessProfileAction(input: unknown) {
  return runAction(async () => {
    const ctx = await requireAdmin();
    const profile = await updateBusinessProfile({ ctx, input: businessProfileInput.parse(input) });
    revalidatePath("/settings/profile");
    return profile;
  });
}

export async function deleteDocumentAction(id: string) {
  return runAction(async () => {
    const ctx = await requireAdmin();
    await deleteDocument({ ctx, id });
    revalidatePath("/settings/profile");
  });
}
