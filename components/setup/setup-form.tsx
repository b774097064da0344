"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Field, NewPasswordField } from "@/components/ui/field";
import { signInAfterSetupAction } from "@/app/setup/actions";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { postJson } from "@/lib/client/api";

export function SetupForm() {
  const router = useRouter();
  const t = useTranslations("auth.setup");
  const errorMessage = useApiErrorMessage();
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = Object.fromEntries(["account_name", "name", "email", "password"].map((k) => [k, String(form.get(k) ?? "")]));
    setPending(true);
    setErrors({});
    setFormError(undefined);
    const result = await postJson("/api/setup", body);
    if (result.ok) {
      // Signed in at once and taken to the inbox; should that fail, the sign-in page takes over.
      await signInAfterSetupAction(body.email, body.password);
      router.push(`/login?setup=done&email=${encodeURIComponent(body.email)}`);
      return;
    }
    setPending(false);
    setErrors(result.fieldErrors);
    if (!Object.keys(result.fieldErrors).length) setFormError(errorMessage(result));
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
      {formError ? <Alert>{formError}</Alert> : null}
      <Field label={t("businessName")} name="account_name" required maxLength={100} error={errors.account_name} autoComplete="organization" />
      <Field label={t("yourName")} name="name" required maxLength={100} error={errors.name} autoComplete="name" />
      <Field label={t("email")} name="email" type="email" required error={errors.email} autoComplete="email" />
      <NewPasswordField name="password" error={errors.password} />
      <Button type="submit" disabled={pending} aria-busy={pending}>
        {pending ? t("creating") : t("submit")}
      </Button>
    </form>
  );
}
