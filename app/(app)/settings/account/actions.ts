"use server";

import { revalidatePath } from "next/cache";
import { revokeAllOwnApiTokens } from "@/lib/auth/api-tokens";
import { requireSession } from "@/lib/server/session";
import { confirmMfaEnrolment, disableMfa, startMfaEnrolment } from "@/lib/auth/mfa";
import { revokeAuthorizedApp } from "@/lib/oauth/grants";
import { runAction } from "@/lib/server/action";
import { changePassword, changePasswordInput } from "@/lib/users/passwords";

export async function changePasswordAction(form: FormData) {
  return runAction(async () => {
    const ctx = await requireSession();
    const input = changePasswordInput.parse({ current_password: String(form.get("current_password") ?? ""), new_password: String(form.get("new_password") ?? "") });
    await changePassword({ ctx, input });
  });
}

export async function startMfaAction() {
  return runAction(async () => {
    const ctx = await requireSession({ allowEnrolment: true });
    return startMfaEnrolment({ ctx });
  });
}

export async function confirmMfaAction(code: string) {
  return runAction(async () => {
    const ctx = await requireSession({ allowEnrolment: true });
    const result = await confirmMfaEnrolment({ ctx, code, sessionId: ctx.token.id });
    revalidatePath("/", "layout");
    return result;
  });
}

export async function disableMfaAction(code: string) {
  return runAction(async () => {
    const ctx = await requireSession();
    await disableMfa({ ctx, userId: ctx.user.id, code });
    revalidatePath("/settings/account");
  });
}

export async function revokeAppAction(grantId: string) {
  return runAction(async () => {
    const ctx = await requireSession();
    await revokeAuthorizedApp({ ctx, grantId });
    revalidatePath("/settings/account");
  });
}

export async function revokeAllTokensAction() {
  return runAction(async () => {
    const ctx = await requireSession();
    const revoked = await revokeAllOwnApiTokens({ ctx });
    revalidatePath("/settings/account");
    return { revoked };
  });
}
