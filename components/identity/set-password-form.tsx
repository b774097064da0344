"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Field, NewPasswordField } from "@/components/ui/field";

export type SetPasswordState = { error?: string; fieldErrors?: Record<string, string>; name?: string };

/** The form of the invitation page (name and password) and of the reset page (password only). */
export function SetPasswordForm({
  action,
  email,
  askName,
  submitLabel,
}: {
  action: (state: SetPasswordState, form: FormData) => Promise<SetPasswordState>;
  email: string;
  askName: boolean;
  submitLabel: string;
}) {
  const t = useTranslations("auth");
  const [state, formAction, pending] = useActionState<SetPasswordState, FormData>(action, {});
  return (
    <form action={formAction} className="flex flex-col gap-4" noValidate>
      {state.error ? <Alert>{state.error}</Alert> : null}
      <Field label={t("login.email")} name="email_display" value={email} readOnly autoComplete="username" />
      {askName ? <Field label={t("setup.yourName")} name="name" required maxLength={100} defaultValue={state.name} autoComplete="name" error={state.fieldErrors?.name} /> : null}
      <NewPasswordField name="password" error={state.fieldErrors?.password} />
      <Button type="submit" disabled={pending} aria-busy={pending}>
        {pending ? t("saving") : submitLabel}
      </Button>
    </form>
  );
}
