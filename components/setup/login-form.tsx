"use client";

import { useActionState, useState } from "react";
import { type LoginState, loginAction } from "@/app/login/actions";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Field } from "@/components/ui/field";

export function LoginForm({ email, setupDone, notice, next }: { email?: string; setupDone?: boolean; notice?: string; next?: string }) {
  const [state, action, pending] = useActionState<LoginState, FormData>(loginAction, { email });
  // Controlled, so the email and password stay filled in when the second step asks for a code.
  const [emailValue, setEmail] = useState(email ?? "");
  const [password, setPassword] = useState("");
  const askCode = Boolean(state.mfa);
  return (
    <form action={action} className="flex flex-col gap-4">
      {setupDone && !state.error ? <Alert tone="success">Your account is ready. Sign in to open the inbox.</Alert> : null}
      {notice && !state.error ? <Alert tone="success">{notice}</Alert> : null}
      {state.error ? <Alert tone={askCode && !state.error.startsWith("That") ? "info" : "error"}>{state.error}</Alert> : null}
      <input type="hidden" name="next" value={next ?? "/inbox"} />
      <Field label="Email" name="email" type="email" required value={emailValue} onChange={(e) => setEmail(e.target.value)} autoComplete="email" readOnly={askCode} />
      <Field
        label="Password"
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
          label="Authentication code"
          name="otp"
          required
          autoFocus
          inputMode="numeric"
          autoComplete="one-time-code"
          hint="The 6-digit code from your authenticator app, or one of your recovery codes."
        />
      ) : null}
      <Button type="submit" disabled={pending} aria-busy={pending}>
        {pending ? "Signing in…" : askCode ? "Verify and sign in" : "Sign in"}
      </Button>
    </form>
  );
}
