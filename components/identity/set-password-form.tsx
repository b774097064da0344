"use client";

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
  const [state, formAction, pending] = useActionState<SetPasswordState, FormData>(action, {});
  return (
    <form action={formAction} className="flex flex-col gap-4" noValidate>
      {state.error ? <Alert>{state.error}</Alert> : null}
      <Field label="Email" name="email_display" value={email} readOnly autoComplete="username" />
      {askName ? <Field label="Your name" name="name" required maxLength={100} defaultValue={state.name} autoComplete="name" error={state.fieldErrors?.name} /> : null}
      <NewPasswordField name="password" error={state.fieldErrors?.password} />
      <Button type="submit" disabled={pending} aria-busy={pending}>
        {pending ? "Saving…" : submitLabel}
      </Button>
    </form>
  );
}
