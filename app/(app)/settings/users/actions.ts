"use server";

import { revalidatePath } from "next/cache";
import { requireAdmin } from "@/lib/server/session";
import { runAction } from "@/lib/server/action";
import { disableMfa, setMfaRequirement } from "@/lib/auth/mfa";
import { createInvitation, createInvitationInput, resendInvitation, revokeInvitation } from "@/lib/users/invitations";
import { issuePasswordReset } from "@/lib/users/passwords";
import { createUserInput, updateUserInput } from "@/lib/users/schemas";
import { createUser, deleteUser, updateUser } from "@/lib/users/users";

// Every action re-checks the role: an agent calling one directly gets a 403 result.
export async function inviteUserAction(form: FormData) {
  return runAction(async () => {
    const ctx = await requireAdmin();
    const input = createUserInput.parse(Object.fromEntries(["name", "email", "role", "password"].map((k) => [k, String(form.get(k) ?? "")])));
    const user = await createUser({ ctx, input });
    revalidatePath("/settings/users");
    return user;
  });
}

export async function changeRoleAction(id: string, role: string) {
  return runAction(async () => {
    const ctx = await requireAdmin();
    const user = await updateUser({ ctx, id, input: updateUserInput.parse({ role }) });
    revalidatePath("/settings/users");
    return user;
  });
}

export async function removeUserAction(id: string) {
  return runAction(async () => {
    const ctx = await requireAdmin();
    await deleteUser({ ctx, id });
    revalidatePath("/settings/users");
  });
}

/** An invitation link (emailed when SMTP_URL is set) for the invited person to choose a name and password. */
export async function sendInvitationAction(form: FormData) {
  return runAction(async () => {
    const ctx = await requireAdmin();
    const input = createInvitationInput.parse({ email: String(form.get("email") ?? ""), role: String(form.get("role") ?? "") });
    const invitation = await createInvitation({ ctx, input });
    revalidatePath("/settings/users");
    return invitation;
  });
}

/** A fresh 7-day link for a pending invitation (emailed again when SMTP_URL is set); the old link stops working. */
export async function resendInvitationAction(id: string) {
  return runAction(async () => {
    const ctx = await requireAdmin();
    const invitation = await resendInvitation({ ctx, id });
    revalidatePath("/settings/users");
    return invitation;
  });
}

export async function revokeInvitationAction(id: string) {
  return runAction(async () => {
    const ctx = await requireAdmin();
    await revokeInvitation({ ctx, id });
    revalidatePath("/settings/users");
  });
}

export async function issueResetLinkAction(id: string) {
  return runAction(async () => {
    const ctx = await requireAdmin();
    return issuePasswordReset({ ctx, userId: id });
  });
}

/** For a user who lost their authenticator: they sign in with the password alone (or enrol again if required). */
export async function removeUserMfaAction(id: string) {
  return runAction(async () => {
    const ctx = await requireAdmin();
    await disableMfa({ ctx, userId: id, byAdmin: true });
    revalidatePath("/settings/users");
  });
}

export async function setMfaRequirementAction(required: boolean) {
  return runAction(async () => {
    const ctx = await requireAdmin();
    await setMfaRequirement({ ctx, required });
    revalidatePath("/settings/users");
  });
}
