"use server";
import "@/lib/server/wiring";

import { AuthError } from "next-auth";
import { signIn } from "@/lib/auth/next-auth";
import { safeNextPath } from "@/lib/auth/next-path";

export type LoginState = { error?: string; email?: string; mfa?: boolean };

const messages: Record<string, string> = {
  rate_limited: "Too many sign-in attempts. Wait a minute and try again.",
  mfa_required: "Enter the 6-digit code from your authenticator app.",
  invalid_otp: "That code is wrong or was already used. Enter the current code, or a recovery code.",
};

export async function loginAction(_prev: LoginState, form: FormData): Promise<LoginState> {
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  const otp = String(form.get("otp") ?? "");
  const next = safeNextPath(form.get("next"));
  try {
    await signIn("credentials", { email, password, otp, redirectTo: next });
  } catch (error) {
    if (error instanceof AuthError) {
      const code = (error as AuthError & { code?: string }).code ?? "";
      const mfa = code === "mfa_required" || code === "invalid_otp";
      return { email, mfa, error: messages[code] ?? "Wrong email or password." };
    }
    throw error;
  }
  return { email };
}
