"use client";

import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { changePasswordAction, confirmMfaAction, disableMfaAction, revokeAllTokensAction, revokeAppAction, startMfaAction } from "@/app/(app)/settings/account/actions";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Field, NewPasswordField } from "@/components/ui/field";
import { useFormAction } from "@/components/ui/use-form-action";
import { useAppFormat } from "@/components/i18n/use-app-format";
import { CardHeading } from "./card-heading";
import { QrCode } from "./qr-code";

type Grant = { id: string; app: { id: string; name: string; host: string }; scopes: string[]; created_at: string };

export function PasswordCard() {
  const t = useTranslations("account.password");
  const [notice, setNotice] = useState<{ tone: "error" | "success"; text: string }>();
  const { pending, errors, onSubmit } = useFormAction(changePasswordAction, {
    onSuccess: (_data, form) => {
      form.reset();
      setNotice({ tone: "success", text: t("changed") });
    },
    onMessage: (text) => setNotice(text === undefined ? undefined : { tone: "error", text }),
  });
  return (
    <Card>
      <CardHeading title={t("title")} description={t("description")} notice={notice} />
      <form
        className="mt-4 grid gap-4 sm:grid-cols-2"
        noValidate
        onSubmit={onSubmit}
      >
        <Field label={t("current")} name="current_password" type="password" required autoComplete="current-password" error={errors.current_password} />
        <NewPasswordField label={t("new")} name="new_password" error={errors.new_password} />
        <div className="sm:col-span-2">
          <Button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? t("saving") : t("change")}
          </Button>
        </div>
      </form>
    </Card>
  );
}

export function TwoFactorCard({
  enabled,
  recoveryCodesLeft,
  required,
  continueTo,
}: {
  enabled: boolean;
  recoveryCodesLeft: number;
  required: boolean;
  /** Where to go once it is on (the required set-up before anything else). */
  continueTo?: string;
}) {
  const t = useTranslations("account.twoFactor");
  const [pending, startTransition] = useTransition();
  const [setup, setSetup] = useState<{ secret: string; uri: string }>();
  const [codes, setCodes] = useState<string[]>();
  const [error, setError] = useState<string>();
  const [isOn, setOn] = useState(enabled);

  const start = () =>
    startTransition(async () => {
      setError(undefined);
      const result = await startMfaAction();
      if (result.ok) setSetup(result.data);
      else setError(result.message);
    });

  return (
    <Card>
      <CardHeading title={t("title")} notice={error} />
      {codes ? (
        <div className="mt-3 flex flex-col gap-3">
          <Alert tone="success">{t("codesShown")}</Alert>
          <ol aria-label={t("recoveryCodes")} translate="no" className="grid grid-cols-1 gap-1 rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-sm sm:grid-cols-2">
            {codes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ol>
          <div className="flex flex-wrap gap-3">
            <CopyButton value={codes.join("\n")} label={t("copyCodes")} />
            {continueTo ? (
              <a
                href={continueTo}
                className="inline-flex items-center justify-center rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white no-underline hover:bg-brand-700 hover:text-white"
              >
                {t("continue")}
              </a>
            ) : null}
          </div>
        </div>
      ) : isOn ? (
        <div className="mt-2 text-sm text-slate-600">
          <p>
            <span className="rounded bg-emerald-50 px-1.5 py-0.5 text-emerald-700">{t("on")}</span> {t("onDescription")}{" "}
            {t("codesLeft", { count: recoveryCodesLeft })}
          </p>
          {required ? (
            <p className="mt-2">{t("required")}</p>
          ) : (
            <form
              className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end"
              onSubmit={(event) => {
                event.preventDefault();
                const code = String(new FormData(event.currentTarget).get("code") ?? "");
                startTransition(async () => {
                  setError(undefined);
                  const result = await disableMfaAction(code);
                  if (result.ok) setOn(false);
                  else setError(result.message);
                });
              }}
            >
              <Field label={t("codeToTurnOff")} name="code" inputMode="numeric" autoComplete="one-time-code" required id="disable-code" />
              <Button type="submit" variant="secondary" disabled={pending}>
                {t("turnOff")}
              </Button>
            </form>
          )}
        </div>
      ) : setup ? (
        <div className="mt-3 flex flex-col gap-4 sm:flex-row">
          <QrCode text={setup.uri} label={t("qrCode")} />
          <div className="flex min-w-0 flex-1 flex-col gap-3 text-sm">
            <p className="text-slate-600">{t("scan")}</p>
            <code className="break-all rounded bg-slate-100 px-2 py-1 text-xs" data-testid="totp-secret" translate="no">
              {setup.secret}
            </code>
            <form
              className="flex flex-col gap-3"
              onSubmit={(event) => {
                event.preventDefault();
                const code = String(new FormData(event.currentTarget).get("code") ?? "");
                startTransition(async () => {
                  setError(undefined);
                  const result = await confirmMfaAction(code);
                  if (result.ok) {
                    setCodes(result.data.recoveryCodes);
                    setOn(true);
                    setSetup(undefined);
                  } else setError(result.fieldErrors.code ?? result.message);
                });
              }}
            >
              <Field label={t("codeFromApp")} name="code" inputMode="numeric" autoComplete="one-time-code" required id="confirm-code" />
              <div>
                <Button type="submit" disabled={pending} aria-busy={pending}>
                  {pending ? t("checking") : t("turnOn")}
                </Button>
              </div>
            </form>
          </div>
        </div>
      ) : (
        <div className="mt-2 text-sm text-slate-600">
          <p>{t("offDescription")}</p>
          <Button type="button" className="mt-4" onClick={start} disabled={pending} aria-busy={pending}>
            {pending ? t("preparing") : t("setUp")}
          </Button>
        </div>
      )}
    </Card>
  );
}

export function AuthorizedAppsCard({ grants }: { grants: Grant[] }) {
  const t = useTranslations("account.apps");
  const format = useAppFormat();
  const [pending, startTransition] = useTransition();
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();
  const [confirm, confirmDialog] = useConfirm();
  return (
    <Card className="p-0">
      {confirmDialog}
      <div className="px-6 pt-6">
        <CardHeading title={t("title")} description={t("description")} notice={error} />
      </div>
      {grants.length ? (
        <ul className="mt-4 divide-y divide-slate-100 border-t border-slate-100" aria-label={t("title")}>
          {grants.map((grant) => (
            <li key={grant.id} className="flex flex-wrap items-center gap-3 px-6 py-3">
              <div className="min-w-0 flex-1">
                <p className="font-medium" data-user-content>
                  {grant.app.name}
                </p>
                <p className="text-xs text-slate-500">
                  <span translate="no">{grant.app.host}</span> · {t("allowedAt", { date: format.dateTime(grant.created_at) })}
                </p>
                <p className="mt-1 break-words text-xs text-slate-600" translate="no">
                  {grant.scopes.join(", ")}
                </p>
              </div>
              <Button
                type="button"
                variant="secondary"
                disabled={pending && busy === grant.id}
                aria-label={t("removeApp", { app: grant.app.name })}
                onClick={async () => {
                  if (!(await confirm({ title: t("confirmTitle", { app: grant.app.name }), body: t("confirmBody"), confirmLabel: t("confirmAction"), tone: "danger" }))) return;
                  setBusy(grant.id);
                  startTransition(async () => {
                    const result = await revokeAppAction(grant.id);
                    if (!result.ok) setError(result.message);
                    setBusy(undefined);
                  });
                }}
              >
                {pending && busy === grant.id ? t("removing") : t("remove")}
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="px-6 pb-6 pt-3 text-sm text-slate-500">{t("none")}</p>
      )}
    </Card>
  );
}

type OwnToken = { id: string; name: string; permissions: string[]; expires_at: string; created_at: string; last_used_at: string | null };

/** The signed-in user's live API tokens, with one button that revokes them all. */
export function ApiTokensCard({ tokens }: { tokens: OwnToken[] }) {
  const t = useTranslations("account.tokens");
  const format = useAppFormat();
  const [pending, startTransition] = useTransition();
  const [notice, setNotice] = useState<{ tone: "error" | "success"; text: string }>();
  const [confirm, confirmDialog] = useConfirm();
  return (
    <Card className="p-0">
      {confirmDialog}
      <div className="flex flex-wrap items-start gap-3 px-6 pt-6">
        <div className="min-w-0 flex-1">
          <h2 className="text-base font-semibold">{t("title")}</h2>
          <p className="mt-1 text-sm text-slate-600">{t("description")}</p>
        </div>
        {tokens.length ? (
          <Button
            type="button"
            variant="secondary"
            disabled={pending}
            aria-busy={pending}
            onClick={async () => {
              const ok = await confirm({
                title: t("confirmTitle", { count: tokens.length }),
                body: t("confirmBody"),
                confirmLabel: t("revokeAll"),
                tone: "danger",
              });
              if (!ok) return;
              startTransition(async () => {
                const result = await revokeAllTokensAction();
                setNotice(result.ok ? { tone: "success", text: t("revoked", { count: result.data.revoked }) } : { tone: "error", text: result.message });
              });
            }}
          >
            {pending ? t("revoking") : t("revokeAll")}
          </Button>
        ) : null}
      </div>
      {notice ? (
        <div className="px-6 pt-3">
          <Alert tone={notice.tone}>{notice.text}</Alert>
        </div>
      ) : null}
      {tokens.length ? (
        <ul className="mt-4 divide-y divide-slate-100 border-t border-slate-100" aria-label={t("title")}>
          {tokens.map((token) => (
            <li key={token.id} className="px-6 py-3">
              <p className="font-medium" data-user-content>
                {token.name}
              </p>
              <p className="text-xs text-slate-500">
                {t("dates", { created: format.dateTime(token.created_at), expires: format.dateTime(token.expires_at) })} ·{" "}
                {token.last_used_at ? t("lastUsed", { when: format.relative(token.last_used_at) }) : t("neverUsed")}
              </p>
              <p className="mt-1 break-words text-xs text-slate-600" translate="no">
                {token.permissions.join(", ")}
              </p>
            </li>
          ))}
        </ul>
      ) : (
        <p className="px-6 pb-6 pt-3 text-sm text-slate-500">{t("none")}</p>
      )}
    </Card>
  );
}
