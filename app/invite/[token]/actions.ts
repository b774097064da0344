"use server";

import { redirect } from "next/navigation";
import type { SetPasswordState } from "@/components/identity/set-password-form";
import { runAction } from "@/lib/server/action";
import { acceptInvitation, acceptInvitationInput } from "@/lib/users/invitations";

export async function acceptInvitationAction(token: string, _prev: SetPasswordState, form: FormData): Promise<SetPasswordState> {
  const name = String(form.get("name") ?? "");
  const result = await runAction(async () => {
    const input = acceptInvitationInput.parse({ name, password: String(form.get("password") ?? "") });
    return acceptInvitation({ token, input });
  });
  if (!result.ok) return { name, error: Object.keys(result.fieldErrors).length ? undefined : result.message, fieldErrors: result.fieldErrors };
  redirect(`/login?email=${encodeURIComponent(result.data.email)}&joined=1`);
}
