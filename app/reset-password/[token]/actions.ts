"use server";

import { redirect } from "next/navigation";
import type { SetPasswordState } from "@/components/identity/set-password-form";
import { runAction } from "@/lib/server/action";
import { resetPassword, resetPasswordInput } from "@/lib/users/passwords";
import { systemContext } from "@/lib/server/context";

export async function resetPasswordAction(token: string, _prev: SetPasswordState, form: FormData): Promise<SetPasswordState> {
  const result = await runAction(async () => {
    const input = resetPasswordInput.parse({ password: String(form.get("password") ?? "") });
    return resetPassword(systemContext(), { token, password: input.password });
  });
  if (!result.ok) return { error: Object.keys(result.fieldErrors).length ? undefined : result.message, fieldErrors: result.fieldErrors };
  redirect(`/login?email=${encodeURIComponent(result.data.email)}&reset=1`);
}
