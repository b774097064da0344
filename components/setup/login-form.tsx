"use client";

import { useActionState } from "react";
import { type LoginState, loginAction } from "@/app/login/actions";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Field } from "@/components/ui/field";

export function LoginForm({ email, setupDone, next }: { email?: string; setupDone?: boolean; next?: string }) {
  const [state, action, pending] = useActionState<LoginState, FormData>(loginAction, { email });
  return (
    <form action={action} className="flex flex-col gap-4">
      {setupDone && !state.error ? <Alert tone="success">Your account is ready. Sign in to open the inbox.</Alert> : null}
      {state.error ? <Alert>{state.error}</Alert> : null}
      <input type="hidden" name="next" value={next ?? "/inbox"} />
      <Field label="Email" name="email" type="email" required defaultValue={state.email ?? email} autoComplete="email" />
      <Field label="Password" name="password" type="password" required autoComplete="current-password" />
      <Button type="submit" disabled={pending} aria-busy={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
