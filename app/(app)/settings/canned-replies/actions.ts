"use server";

import { revalidatePath } from "next/cache";
import { requireAdmin } from "@/lib/server/session";
import { createCannedReply, deleteCannedReply, updateCannedReply } from "@/lib/canned-replies/canned-replies";
import { createCannedReplyInput, updateCannedReplyInput } from "@/lib/canned-replies/schemas";
import { runAction } from "@/lib/server/action";

// Changing canned replies is config:write, which only administrators hold.
const editor = requireAdmin;

export async function createCannedReplyAction(input: { shortcut: string; text: string }) {
  return runAction(async () => {
    const ctx = await editor();
    const created = await createCannedReply({ ctx, input: createCannedReplyInput.parse(input) });
    revalidatePath("/settings/canned-replies");
    return created;
  });
}

export async function updateCannedReplyAction(id: string, input: { shortcut?: string; text?: string }) {
  return runAction(async () => {
    const ctx = await editor();
    const updated = await updateCannedReply({ ctx, id, input: updateCannedReplyInput.parse(input) });
    revalidatePath("/settings/canned-replies");
    return updated;
  });
}

export async function deleteCannedReplyAction(id: string) {
  return runAction(async () => {
    const ctx = await editor();
    await deleteCannedReply({ ctx, id });
    revalidatePath("/settings/canned-replies");
  });
}
