"use server";

import { AuthError } from "next-auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { SetPasswordState } from "@/components/identity/set-password-form";
import { signIn } from "@/lib/server/next-auth";
import { matchAcceptLanguage } from "@/lib/platform/i18n/locales";
import { action, failedFormState, formInput, formText } from "@/lib/server/action";
import { acceptInvitation, acceptInvitationInput } from "@/lib/users/invitations";

// Anyone holding the link may use it; the link's token is the proof.
const join = action({ role: "anyone", args: [z.string(), formInput(acceptInvitationInput, (form) => formText(form, "name", "password"))] }, async ([token, input], ctx) =>
  acceptInvitation(ctx, { token, input, locale: matchAcceptLanguage((await headers()).get("accept-language")) }),
);

/** Joins the team, then signs the new teammate in with the password just chosen: they land in the inbox. */
export async function acceptInvitationAction(token: string, _prev: SetPasswordState, form: FormData): Promise<SetPasswordState> {
  const { name, password } = formText(form, "name", "password");
  const result = await join(token, form);
  if (!result.ok) return { name, ...failedFormState(result) };
  try {
    await signIn("credentials", { email: result.data.email, password, redirectTo: "/inbox" });
  } catch (error) {
    // Signing in failed (too many attempts from this address): the sign-in page takes over.
    if (!(error instanceof AuthError)) throw error;
  }
  redirect(`/login?email=${encodeURIComponent(result.data.email)}&joined=1`);
}
