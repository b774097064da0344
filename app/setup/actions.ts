"use server";

import { AuthError } from "next-auth";
import { signIn } from "@/lib/auth/next-auth";

/**
 * Right after first-run set-up: the new administrator is signed in with the password just
 * chosen (through the ordinary sign-in, so its limits and audit apply) and lands in the inbox.
 * Answers only when that fails; then the sign-in page takes over.
 */
export async function signInAfterSetupAction(email: string, password: string): Promise<{ ok: false }> {
  try {
    await signIn("credentials", { email, password, redirectTo: "/inbox" });
  } catch (error) {
    if (error instanceof AuthError) return { ok: false };
    throw error;
  }
  return { ok: false };
}
