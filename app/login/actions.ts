"use server";

import { AuthError } from "next-auth";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { signIn } from "@/lib/server/next-auth";
import { safeNextPath } from "@/lib/auth/next-path";
import { isDatabaseUnavailable, loggable } from "@/lib/platform/errors";
import { action, formInput, formText } from "@/lib/server/action";

export type LoginState = { error?: string; errorCode?: string; email?: string; mfa?: boolean };

// What each refusal says; anything else is the one answer for a wrong email or password.
const messageKeys: Record<string, string> = { rate_limited: "rateLimited", mfa_required: "mfaRequired", invalid_otp: "invalidOtp" };

// Every field is read as typed: an empty or wrong one is the sign-in's own "wrong email or password".
const loginForm = formInput(z.object({ email: z.string(), password: z.string(), otp: z.string(), next: z.string() }), (form) => formText(form, "email", "password", "otp", "next"));

const signInWithPassword = action({ role: "anyone", schema: loginForm }, async ({ email, password, otp, next }): Promise<LoginState> => {
  try {
    // A success answers with the redirect to the page the visitor came for.
    await signIn("credentials", { email, password, otp, redirectTo: safeNextPath(next) });
  } catch (error) {
    // next-auth wraps whatever the sign-in check throws in its own error, the original as
    // `cause.err`. A database that cannot be reached is not a refused password: the form says the
    // service is unavailable and to try again, in the visitor's language.
    const cause = error instanceof AuthError ? (error.cause as { err?: unknown } | undefined)?.err : undefined;
    if (isDatabaseUnavailable(cause ?? error)) {
      console.warn(`sign-in: database unavailable: ${loggable(cause ?? error)}`);
      const t = await getTranslations("auth.login.errors");
      return { email, errorCode: "service_unavailable", error: t("serviceUnavailable") };
    }
    if (error instanceof AuthError) {
      const code = (error as AuthError & { code?: string }).code ?? "";
      const mfa = code === "mfa_required" || code === "invalid_otp";
      const t = await getTranslations("auth.login.errors");
      return { email, mfa, errorCode: code || "wrong_credentials", error: t(messageKeys[code] ?? "wrongCredentials") };
    }
    throw error;
  }
  return { email };
});

export async function loginAction(_prev: LoginState, form: FormData): Promise<LoginState> {
  const result = await signInWithPassword(form);
  // Anything the sign-in does not answer itself (a fault on our side) is told in words, keeping the email typed.
  return result.ok ? result.data : { email: form instanceof FormData ? String(form.get("email") ?? "") : undefined, errorCode: result.code, error: result.message };
}
