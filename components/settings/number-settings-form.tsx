"use client";

import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { saveNumberSettingsAction, testNumberConnectionAction } from "@/app/(app)/settings/number/actions";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import type { NumberConfigOutput } from "@/lib/network/number-config";

const statusLabels: Record<NumberConfigOutput["status"], string> = {
  sandbox: "status.sandbox",
  pending: "status.pending",
  connected: "status.connected",
  error: "status.error",
};

const statusTones: Record<NumberConfigOutput["status"], string> = {
  sandbox: "bg-slate-100 text-slate-700",
  pending: "bg-amber-50 text-amber-800",
  connected: "bg-emerald-50 text-emerald-800",
  error: "bg-red-50 text-red-800",
};

/** A write-only credential: blank keeps the stored value, which is never shown. */
function SecretInput({ label, name, set, error }: { label: string; name: string; set: boolean; error?: string }) {
  const t = useTranslations("settingsNumber.form");
  return (
    <Field
      label={label}
      name={name}
      type="password"
      autoComplete="off"
      placeholder={set ? t("secretSetPlaceholder") : ""}
      error={error}
      hint={set ? t("secretSetHint") : t("secretNewHint")}
    />
  );
}

export function NumberSettingsForm({ initial }: { initial: NumberConfigOutput }) {
  const t = useTranslations("settingsNumber.form");
  const errorMessage = useApiErrorMessage();
  const [config, setConfig] = useState(initial);
  const [provider, setProvider] = useState(initial.provider);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<{ tone: "error" | "success" | "info"; text: string }>();
  const [testResult, setTestResult] = useState<{ ok: boolean; message: string }>();
  const [saving, startSaving] = useTransition();
  const [testing, startTesting] = useTransition();

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => String(form.get(name) ?? "");
    const input = {
      provider,
      phone_number: text("phone_number"),
      phone_number_id: text("phone_number_id"),
      business_account_id: text("business_account_id"),
      // Blank secret inputs keep what is stored.
      access_token: text("access_token"),
      app_secret: text("app_secret"),
      verify_token: text("verify_token"),
      // A cleared field means the default address.
      api_base_url: text("api_base_url").trim() || null,
      coexistence: form.get("coexistence") === "on",
    };
    setNotice(undefined);
    setTestResult(undefined);
    startSaving(async () => {
      const result = await saveNumberSettingsAction(input);
      if (result.ok) {
        setConfig(result.data);
        setErrors({});
        formElement.querySelectorAll<HTMLInputElement>("input[type=password]").forEach((el) => (el.value = ""));
        setNotice({ tone: "success", text: provider === "cloud" ? t("savedCloud") : t("saved") });
      } else {
        setErrors(result.fieldErrors);
        const text =
          result.status === 403
            ? t("adminOnly")
            : Object.keys(result.fieldErrors).length
              ? t("checkFields")
              : errorMessage(result);
        setNotice({ tone: "error", text });
      }
    });
  }

  function onTest() {
    setTestResult(undefined);
    startTesting(async () => {
      const result = await testNumberConnectionAction();
      if (result.ok) {
        setTestResult({ ok: result.data.ok, message: result.data.message });
        setConfig((current) => ({ ...current, status: result.data.status, status_reason: result.data.ok ? null : result.data.message }));
      } else {
        setTestResult({ ok: false, message: errorMessage(result) });
      }
    });
  }

  const cloud = provider === "cloud";

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-6" noValidate>
      <Card>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-base font-semibold text-slate-900">{t("connection")}</h2>
          <span className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${statusTones[config.status]}`} aria-label={t("statusLabel", { status: t(statusLabels[config.status]) })}>
            {t(statusLabels[config.status])}
          </span>
        </div>
        {config.status === "error" && config.status_reason ? <p className="mt-2 text-sm text-red-700" translate="no">
            {config.status_reason}
          </p> : null}

        <fieldset className="mt-4 flex flex-col gap-3">
          <legend className="text-sm font-medium text-slate-700">{t("provider")}</legend>
          {(
            [
              ["sandbox", "sandbox", "sandboxHint"],
              ["cloud", "cloud", "cloudHint"],
            ] as const
          ).map(([value, label, description]) => (
            <label key={value} className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-200 p-3 has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50">
              <input type="radio" name="provider" value={value} checked={provider === value} onChange={() => setProvider(value)} className="mt-1" />
              <span>
                <span className="block text-sm font-medium text-slate-900">{t(label)}</span>
                <span className="block text-sm text-slate-600">{t(description)}</span>
              </span>
            </label>
          ))}
          {errors.provider ? <p className="text-xs text-red-600">{errors.provider}</p> : null}
        </fieldset>

        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <Field
            label={cloud ? t("phone") : t("phoneOptional")}
            name="phone_number"
            defaultValue={config.phone_number ?? ""}
            placeholder="+14155552671"
            inputMode="tel"
            autoComplete="off"
            error={errors.phone_number}
            hint={t("phoneHint")}
          />
        </div>
      </Card>

      {/* Kept in the form while the sandbox is chosen, so switching back and forth loses nothing. */}
      <div hidden={!cloud}>
        <Card>
          <h2 className="text-base font-semibold text-slate-900">{t("cloudTitle")}</h2>
          <p className="mt-1 text-sm text-slate-600">{t("cloudDescription")}</p>
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <Field label={t("phoneId")} name="phone_number_id" defaultValue={config.phone_number_id ?? ""} autoComplete="off" error={errors.phone_number_id} />
            <Field
              label={t("businessId")}
              name="business_account_id"
              defaultValue={config.business_account_id ?? ""}
              autoComplete="off"
              error={errors.business_account_id}
            />
            <SecretInput label={t("accessToken")} name="access_token" set={config.access_token_set} error={errors.access_token} />
            <SecretInput label={t("appSecret")} name="app_secret" set={config.app_secret_set} error={errors.app_secret} />
            <Field
              label={t("verifyToken")}
              name="verify_token"
              defaultValue={config.verify_token ?? ""}
              autoComplete="off"
              error={errors.verify_token}
              hint={t("verifyTokenHint")}
            />
            <Field
              label={t("apiBase")}
              name="api_base_url"
              defaultValue={config.api_base_url}
              autoComplete="off"
              error={errors.api_base_url}
              hint={t("apiBaseHint")}
            />
          </div>

          <div className="mt-5 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
            <p className="font-medium text-slate-800">{t("callback")}</p>
            <p className="mt-1 text-slate-600">{t("callbackHint")}</p>
            <code className="mt-2 block break-all rounded bg-white px-2 py-1 text-slate-900" aria-label={t("callback")} translate="no">
              {config.webhook_url}
            </code>
          </div>
        </Card>
      </div>

      <Card>
        <label className="flex cursor-pointer items-start gap-3">
          <input type="checkbox" name="coexistence" defaultChecked={config.coexistence} className="mt-1" />
          <span>
            <span className="block text-sm font-medium text-slate-900">{t("coexistence")}</span>
            <span className="block text-sm text-slate-600">
              {t("coexistenceHint")}
            </span>
          </span>
        </label>
        {errors.coexistence ? <p className="mt-1 text-xs text-red-600">{errors.coexistence}</p> : null}
      </Card>

      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}

      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={saving} aria-busy={saving}>
          {saving ? t("saving") : t("save")}
        </Button>
        <Button type="button" variant="secondary" onClick={onTest} disabled={testing || saving} aria-busy={testing}>
          {testing ? t("testing") : t("test")}
        </Button>
        <span className="text-xs text-slate-500">{t("testsSaved")}</span>
      </div>
      <div aria-live="polite">
        {testing ? <Alert tone="info">{t("contacting")}</Alert> : null}
        {testResult ? <Alert tone={testResult.ok ? "success" : "error"}>{testResult.message}</Alert> : null}
      </div>
    </form>
  );
}
