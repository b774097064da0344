"use server";

import { AuthError } from "next-auth";
import { signIn } from "@/lib/auth/next-auth";

export type LoginState = { error?: string; email?: string };

export async function loginAction(_prev: LoginState, form: FormData): Promise<LoginState> {
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  const next = String(form.get("next") ?? "/inbox");
  try {
    await signIn("credentials", { email, password, redirectTo: next.startsWith("/") && !next.startsWith("//") ? next : "/inbox" });
  } catch (error) {
    if (error instanceof AuthError) {
      const code = (error as AuthError & { code?: string }).code;
      return {
        email,
        error:
          code === "rate_limited"
            ? "Too many sign-in attempts. Wait a minute and try again."
            : "Wrong email or password.",
      };
    }
    throw error;
  }
  return { email };
}
