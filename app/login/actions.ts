"use server";

import { AuthError } from "next-auth";
import { getTranslations } from "next-intl/server";
import { signIn } from "@/lib/auth/next-auth";
import { safeNextPath } from "@/lib/auth/next-path";

export type LoginState = { error?: string; errorCode?: string; email?: string; mfa?: boolean };

// What each refusal says; anything else is the one answer for a wrong email or password.
const messageKeys: Record<string, string> = { rate_limited: "rateLimited", mfa_required: "mfaRequired", invalid_otp: "invalidOtp" };

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
      const t = await getTranslations("auth.login.errors");
      return { email, mfa, errorCode: code || "wrong_credentials", error: t(messageKeys[code] ?? "wrongCredentials") };
    }
    throw error;
  }
  return { email };
}
