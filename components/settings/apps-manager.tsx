"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { createAppAction, deleteAppAction } from "@/app/(app)/settings/apps/actions";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { useAppFormat } from "@/components/i18n/use-app-format";
import { scopeLabelsIn } from "@/components/oauth/scope-labels";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { SecretField } from "@/components/ui/secret-field";
import { useFormAction } from "@/components/ui/use-form-action";
import type { Scope } from "@/lib/auth/scopes";
import type { AppOutput } from "@/lib/oauth/schemas";

type App = AppOutput;
type Group = { area: string; scopes: Scope[] };

function Secret({ label, value }: { label: string; value: string }) {
  const t = useTranslations("settingsApps");
  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs font-medium text-slate-600">{label}</span>
      <SecretField label={label} value={value} copyLabel={t("copy")} copyAriaLabel={t("copyNamed", { label })} />
    </div>
  );
}

export function AppsManager({ apps, groups, issuer }: { apps: App[]; groups: Group[]; issuer: string }) {
  const [message, setMessage] = useState<string>();
  const [created, setCreated] = useState<App & { client_secret: string | null }>();
  const { pending, startTransition, errors, onSubmit } = useFormAction(createAppAction, {
    onSuccess: (app, form) => {
      setCreated(app);
      form.reset();
    },
    onMessage: setMessage,
  });
  const [busy, setBusy] = useState<string>();
  const [confirm, confirmDialog] = useConfirm();
  const t = useTranslations("settingsApps");
  const scopeLabels = scopeLabelsIn(useTranslations("oauth.scopes"));
  const errorMessage = useApiErrorMessage();
  const format = useAppFormat();
  const code = (chunks: React.ReactNode) => (
    <code className="break-all text-xs" translate="no">
      {chunks}
    </code>
  );

  return (
    <div className="flex flex-col gap-6">
      {confirmDialog}
      {message ? <Alert>{message}</Alert> : null}
      {created ? (
        <Card className="border-brand-200 bg-brand-50">
          <p role="status" className="text-sm font-medium text-slate-900">
            {t.rich("registered", { name: created.name, typed: (chunks) => <span data-user-content>{chunks}</span> })}
          </p>
          <p className="mt-1 text-sm text-slate-600">
            {created.client_secret ? t("copySecretNow") : t("noSecret")} {t.rich("metadata", { url: `${issuer}/.well-known/oauth-authorization-server`, code })}
          </p>
          <div className="mt-3 flex flex-col gap-3">
            <Secret label={t("clientId")} value={created.client_id} />
            {created.client_secret ? <Secret label={t("clientSecret")} value={created.client_secret} /> : null}
          </div>
        </Card>
      ) : null}

      <Card className="p-0">
        {apps.length ? (
          <ul className="divide-y divide-slate-100" aria-label={t("list")}>
            {apps.map((app) => (
              <li key={app.id} className="flex flex-wrap items-start gap-3 px-6 py-4">
                <div className="min-w-0 flex-1">
                  <p className="font-medium">
                    <span data-user-content>{app.name}</span>{" "}
                    <span className="ms-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-normal text-slate-600">
                      {app.client_type === "public" ? t("clientType.public") : t("clientType.confidential")}
                    </span>
                  </p>
                  <p className="mt-1 break-all font-mono text-xs text-slate-500" translate="no">
                    {app.client_id}
                  </p>
                  <p className="mt-1 break-all text-xs text-slate-600" translate="no">
                    {app.redirect_uris.join(", ")}
                  </p>
                  <p className="mt-1 break-words text-xs text-slate-600" translate="no">
                    {app.allowed_scopes.join(", ")}
                  </p>
                  <p className="mt-1 text-xs text-slate-400">
                    {t.rich("registeredAt", { time: () => <time dateTime={app.created_at}>{format.dateTime(app.created_at)}</time> })}
                  </p>
                </div>
                <Button
                  type="button"
                  variant="secondary"
                  disabled={busy === app.id}
                  aria-label={t("deleteNamed", { name: app.name })}
                  onClick={async () => {
                    if (!(await confirm({ title: t("confirmTitle", { name: app.name }), body: t("confirmBody"), confirmLabel: t("confirm"), tone: "danger" }))) return;
                    setBusy(app.id);
                    startTransition(async () => {
                      const result = await deleteAppAction(app.id);
                      if (!result.ok) setMessage(errorMessage(result));
                      setBusy(undefined);
                    });
                  }}
                >
                  {busy === app.id ? t("deleting") : t("delete")}
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="px-6 py-6 text-sm text-slate-500">{t("empty")}</p>
        )}
      </Card>

      <Card>
        <h2 className="text-base font-semibold">{t("register")}</h2>
        <form
          className="mt-4 flex flex-col gap-4"
          noValidate
          onSubmit={onSubmit}
        >
          <Field label={t("name")} name="name" required maxLength={100} error={errors.name} hint={t("nameHint")} id="app-name" />
          <div className="flex flex-col gap-1">
            <label htmlFor="app-redirects" className="text-sm font-medium text-slate-700">
              {t("redirectUris")}
            </label>
            <textarea
              id="app-redirects"
              name="redirect_uris"
              rows={2}
              required
              placeholder={t("redirectPlaceholder")}
              aria-describedby="app-redirects-hint"
              className="rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
            />
            <p id="app-redirects-hint" className={`text-xs ${Object.keys(errors).some((k) => k.startsWith("redirect_uris")) ? "text-red-600" : "text-slate-500"}`}>
              {Object.entries(errors).find(([k]) => k.startsWith("redirect_uris"))?.[1] ?? t.rich("redirectHint", { code })}
            </p>
          </div>
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">{t("scopes")}</legend>
            {errors.allowed_scopes ? <p className="text-xs text-red-600">{errors.allowed_scopes}</p> : null}
            <div className="mt-2 grid gap-3 sm:grid-cols-2">
              {groups.map((group) => (
                <div key={group.area} className="rounded-md border border-slate-200 p-3">
                  <p className="text-xs font-semibold uppercase tracking-wide text-slate-500" translate="no">
                    {group.area}
                  </p>
                  {group.scopes.map((scope) => (
                    <label key={scope} className="mt-1 flex items-start gap-2 text-sm">
                      <input type="checkbox" name="allowed_scopes" value={scope} className="mt-1" />
                      <span>
                        {scopeLabels[scope]}{" "}
                        <code className="text-xs text-slate-500" translate="no">
                          {scope}
                        </code>
                      </span>
                    </label>
                  ))}
                </div>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">{t("clientTypeLegend")}</legend>
            <label className="mt-2 flex items-start gap-2 text-sm">
              <input type="radio" name="client_type" value="confidential" defaultChecked className="mt-1" />
              <span>{t("confidential")}</span>
            </label>
            <label className="mt-1 flex items-start gap-2 text-sm">
              <input type="radio" name="client_type" value="public" className="mt-1" />
              <span>{t("public")}</span>
            </label>
          </fieldset>
          <div>
            <Button type="submit" disabled={pending} aria-busy={pending}>
              {pending ? t("registering") : t("submit")}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
