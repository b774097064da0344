"use server";

import { updateBusinessProfile } from "@/lib/profile/business-profile";
import { deleteDocument } from "@/lib/profile/documents";
import { businessProfileInput } from "@/lib/profile/schemas";
import { action, recordId } from "@/lib/server/action";

const page = "/settings/profile";

export const saveBusinessProfileAction = action({ role: "admin", schema: businessProfileInput, revalidate: page }, (input, ctx) => updateBusinessProfile({ ctx, input }));

export const deleteDocumentAction = action({ role: "admin", schema: recordId, revalidate: page }, async (id, ctx) => {
  await deleteDocument({ ctx, id });
});
