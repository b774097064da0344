"use client";

import { useTranslations } from "next-intl";
import { useActionState, useEffect, useRef, useState } from "react";
import { type LoginState, loginAction } from "@/app/login/actions";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Field } from "@/components/ui/field";

export function LoginForm({ email, setupDone, notice, next }: { email?: string; setupDone?: boolean; notice?: string; next?: string }) {
  const t = useTranslations("auth.login");
  const [state, action, pending] = useActionState<LoginState, FormData>(loginAction, { email });
  // Controlled, so the email and password stay filled in when the second step asks for a code.
  const [emailValue, setEmail] = useState(email ?? "");
  const [password, setPassword] = useState("");
  // What was typed before the page's script took over (a slow connection, a phone) is in the
  // inputs but not in the state; the next render would write the state back over it. It is taken
  // into the state once, when the form comes alive.
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const typed = (name: string) => (form.current?.elements.namedItem(name) as HTMLInputElement | null)?.value ?? "";
    const typedEmail = typed("email");
    const typedPassword = typed("password");
    if (typedEmail) setEmail(typedEmail);
    if (typedPassword) setPassword(typedPassword);
  }, []);
  const askCode = Boolean(state.mfa);
  // While the database cannot be reached the server may answer the sign-in itself, with its own
  // result (`code`, an English `message`) instead of the form's state: told in the page's language.
  const unavailable = state.errorCode === "service_unavailable" || (state as { code?: unknown }).code === "service_unavailable";
  const error = unavailable ? t("errors.serviceUnavailable") : state.error;
  return (
    <form ref={form} action={action} className="flex flex-col gap-4">
      {setupDone && !error ? <Alert tone="success">{t("setupDone")}</Alert> : null}
      {notice && !error ? <Alert tone="success">{notice}</Alert> : null}
      {error ? <Alert tone={state.errorCode === "mfa_required" ? "info" : "error"}>{error}</Alert> : null}
      <input type="hidden" name="next" value={next ?? "/inbox"} />
      <Field label={t("email")} name="email" type="email" required value={emailValue} onChange={(e) => setEmail(e.target.value)} autoComplete="email" readOnly={askCode} />
      <Field
        label={t("password")}
        name="password"
        type="password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        autoComplete="current-password"
        readOnly={askCode}
      />
      {askCode ? (
        <Field
          key="otp"
          label={t("code")}
          name="otp"
          required
          autoFocus
          inputMode="numeric"
          autoComplete="one-time-code"
          hint={t("codeHint")}
        />
      ) : null}
      <Button type="submit" disabled={pending} aria-busy={pending}>
        {pending ? t("signingIn") : askCode ? t("verifyAndSignIn") : t("submit")}
      </Button>
    </form>
  );
}
