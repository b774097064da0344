"use server";

import { z } from "zod";
import { disableMfa, setMfaRequirement } from "@/lib/auth/mfa";
import { action, formInput, formText, recordId } from "@/lib/server/action";
import { createInvitation, createInvitationInput, resendInvitation, revokeInvitation } from "@/lib/users/invitations";
import { issuePasswordReset } from "@/lib/users/passwords";
import { createUserInput, updateUserInput } from "@/lib/users/schemas";
import { createUser, deleteUser, updateUser } from "@/lib/users/users";

const admin = { role: "admin", revalidate: "/settings/users" } as const;

// The role picker sends the role alone; it is checked as the API checks a change of role.
const newRole = z
  .unknown()
  .transform((role): unknown => ({ role }))
  .pipe(updateUserInput);

export const inviteUserAction = action({ ...admin, schema: formInput(createUserInput, (form) => formText(form, "name", "email", "role", "password")) }, (input, ctx) =>
  createUser({ ctx, input }),
);

export const changeRoleAction = action({ ...admin, args: [recordId, newRole] }, ([id, input], ctx) => updateUser({ ctx, id, input }));

export const removeUserAction = action({ ...admin, schema: recordId }, async (id, ctx) => {
  await deleteUser({ ctx, id });
});

/** An invitation link (emailed when SMTP_URL is set) for the invited person to choose a name and password. */
export const sendInvitationAction = action({ ...admin, schema: formInput(createInvitationInput, (form) => formText(form, "email", "role")) }, (input, ctx) =>
  createInvitation({ ctx, input }),
);

/** A fresh 7-day link for a pending invitation (emailed again when SMTP_URL is set); the old link stops working. */
export const resendInvitationAction = action({ ...admin, schema: recordId }, (id, ctx) => resendInvitation({ ctx, id }));

export const revokeInvitationAction = action({ ...admin, schema: recordId }, async (id, ctx) => {
  await revokeInvitation({ ctx, id });
});

export const issueResetLinkAction = action({ role: "admin", schema: recordId }, (id, ctx) => issuePasswordReset({ ctx, userId: id }));

/** For a user who lost their authenticator: they sign in with the password alone (or enrol again if required). */
export const removeUserMfaAction = action({ ...admin, schema: recordId }, async (id, ctx) => {
  await disableMfa({ ctx, userId: id, byAdmin: true });
});

export const setMfaRequirementAction = action({ ...admin, schema: z.boolean() }, async (required, ctx) => {
  await setMfaRequirement({ ctx, required });
});
