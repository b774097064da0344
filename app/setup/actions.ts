"use server";

import { AuthError } from "next-auth";
import { z } from "zod";
import { signIn } from "@/lib/server/next-auth";
import { action } from "@/lib/server/action";

const signInAfterSetup = action({ role: "anyone", args: [z.string(), z.string()] }, async ([email, password]) => {
  try {
    await signIn("credentials", { email, password, redirectTo: "/inbox" });
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
  }
});

/**
 * Right after first-run set-up: the new administrator is signed in with the password just
 * chosen (through the ordinary sign-in, so its limits and audit apply) and lands in the inbox.
 * Answers only when that fails; then the sign-in page takes over.
 */
export async function signInAfterSetupAction(email: string, password: string): Promise<{ ok: false }> {
  await signInAfterSetup(email, password);
  return { ok: false };
}
