"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import type { SetPasswordState } from "@/components/identity/set-password-form";
import { action, failedFormState, formInput, formText } from "@/lib/server/action";
import { resetPassword, resetPasswordInput } from "@/lib/users/passwords";

// Anyone holding the link may use it; the link's token is the proof.
const reset = action({ role: "anyone", args: [z.string(), formInput(resetPasswordInput, (form) => formText(form, "password"))] }, ([token, input], ctx) =>
  resetPassword(ctx, { token, password: input.password }),
);

export async function resetPasswordAction(token: string, _prev: SetPasswordState, form: FormData): Promise<SetPasswordState> {
  const result = await reset(token, form);
  if (!result.ok) return failedFormState(result);
  redirect(`/login?email=${encodeURIComponent(result.data.email)}&reset=1`);
}
