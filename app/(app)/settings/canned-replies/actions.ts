"use server";

import { createCannedReply, deleteCannedReply, updateCannedReply } from "@/lib/canned-replies/canned-replies";
import { createCannedReplyInput, updateCannedReplyInput } from "@/lib/canned-replies/schemas";
import { action, recordId } from "@/lib/server/action";

const page = "/settings/canned-replies";

// Changing canned replies is config:write, which only administrators hold.
export const createCannedReplyAction = action({ role: "admin", schema: createCannedReplyInput, revalidate: page }, (input, ctx) => createCannedReply({ ctx, input }));

export const updateCannedReplyAction = action({ role: "admin", args: [recordId, updateCannedReplyInput], revalidate: page }, ([id, input], ctx) =>
  updateCannedReply({ ctx, id, input }),
);

export const deleteCannedReplyAction = action({ role: "admin", schema: recordId, revalidate: page }, async (id, ctx) => {
  await deleteCannedReply({ ctx, id });
});
