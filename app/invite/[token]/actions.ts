"use server";

import { AuthError } from "next-auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { SetPasswordState } from "@/components/identity/set-password-form";
import { signIn } from "@/lib/auth/next-auth";
import { matchAcceptLanguage } from "@/lib/platform/i18n/locales";
import { runAction } from "@/lib/server/action";
import { systemContext } from "@/lib/server/context";
import { acceptInvitation, acceptInvitationInput } from "@/lib/users/invitations";

/** Joins the team, then signs the new teammate in with the password just chosen: they land in the inbox. */
export async function acceptInvitationAction(token: string, _prev: SetPasswordState, form: FormData): Promise<SetPasswordState> {
  const name = String(form.get("name") ?? "");
  const password = String(form.get("password") ?? "");
  const result = await runAction(async () => {
    const input = acceptInvitationInput.parse({ name, password });
    return acceptInvitation(systemContext(), { token, input, locale: matchAcceptLanguage((await headers()).get("accept-language")) });
  });
  if (!result.ok) return { name, error: Object.keys(result.fieldErrors).length ? undefined : result.message, fieldErrors: result.fieldErrors };
  try {
    await signIn("credentials", { email: result.data.email, password, redirectTo: "/inbox" });
  } catch (error) {
    // Signing in failed (too many attempts from this address): the sign-in page takes over.
    if (!(error instanceof AuthError)) throw error;
  }
  redirect(`/login?email=${encodeURIComponent(result.data.email)}&joined=1`);
}
