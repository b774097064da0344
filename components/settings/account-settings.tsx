"use client";

import { useState, useTransition } from "react";
import { changePasswordAction, confirmMfaAction, disableMfaAction, revokeAllTokensAction, revokeAppAction, startMfaAction } from "@/app/(app)/settings/account/actions";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Field, NewPasswordField } from "@/components/ui/field";
import { useFormAction } from "@/components/ui/use-form-action";
import { formatDateTime, formatRelative } from "@/components/ui/format";
import { QrCode } from "./qr-code";

type Grant = { id: string; app: { id: string; name: string; host: string }; scopes: string[]; created_at: string };

export function PasswordCard() {
  const [notice, setNotice] = useState<{ tone: "error" | "success"; text: string }>();
  const { pending, errors, onSubmit } = useFormAction(changePasswordAction, {
    onSuccess: (_data, form) => {
      form.reset();
      setNotice({ tone: "success", text: "Password changed. Your other sessions were signed out and the apps you allowed lost their access." });
    },
    onMessage: (text) => setNotice(text === undefined ? undefined : { tone: "error", text }),
  });
  return (
    <Card>
      <h2 className="text-base font-semibold">Password</h2>
      <p className="mt-1 text-sm text-slate-600">Changing it signs you out of every other browser and session, and ends the access of every app you allowed.</p>
      {notice ? (
        <div className="mt-3">
          <Alert tone={notice.tone}>{notice.text}</Alert>
        </div>
      ) : null}
      <form
        className="mt-4 grid gap-4 sm:grid-cols-2"
        noValidate
        onSubmit={onSubmit}
      >
        <Field label="Current password" name="current_password" type="password" required autoComplete="current-password" error={errors.current_password} />
        <NewPasswordField label="New password" name="new_password" error={errors.new_password} />
        <div className="sm:col-span-2">
          <Button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? "Saving…" : "Change password"}
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
      <h2 className="text-base font-semibold">Two-factor sign-in</h2>
      {error ? (
        <div className="mt-3">
          <Alert>{error}</Alert>
        </div>
      ) : null}
      {codes ? (
        <div className="mt-3 flex flex-col gap-3">
          <Alert tone="success">Two-factor sign-in is on. Keep these recovery codes somewhere safe: each signs you in once without your phone. They are not shown again.</Alert>
          <ol aria-label="Recovery codes" className="grid grid-cols-1 gap-1 rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-sm sm:grid-cols-2">
            {codes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ol>
          <div className="flex flex-wrap gap-3">
            <CopyButton value={codes.join("\n")} label="Copy codes" />
            {continueTo ? (
              <a
                href={continueTo}
                className="inline-flex items-center justify-center rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white no-underline hover:bg-brand-700 hover:text-white"
              >
                Continue
              </a>
            ) : null}
          </div>
        </div>
      ) : isOn ? (
        <div className="mt-2 text-sm text-slate-600">
          <p>
            <span className="rounded bg-emerald-50 px-1.5 py-0.5 text-emerald-700">On</span> You sign in with your password and a code from your authenticator app.{" "}
            {recoveryCodesLeft} recovery code{recoveryCodesLeft === 1 ? "" : "s"} left.
          </p>
          {required ? (
            <p className="mt-2">Your account requires two-factor sign-in, so it stays on.</p>
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
              <Field label="Current code to turn it off" name="code" inputMode="numeric" autoComplete="one-time-code" required id="disable-code" />
              <Button type="submit" variant="secondary" disabled={pending}>
                Turn off
              </Button>
            </form>
          )}
        </div>
      ) : setup ? (
        <div className="mt-3 flex flex-col gap-4 sm:flex-row">
          <QrCode text={setup.uri} label="QR code for your authenticator app" />
          <div className="flex min-w-0 flex-1 flex-col gap-3 text-sm">
            <p className="text-slate-600">Scan the code with an authenticator app (Google Authenticator, 1Password, Authy…), or enter this key:</p>
            <code className="break-all rounded bg-slate-100 px-2 py-1 text-xs" data-testid="totp-secret">
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
              <Field label="Code from the app" name="code" inputMode="numeric" autoComplete="one-time-code" required id="confirm-code" />
              <div>
                <Button type="submit" disabled={pending} aria-busy={pending}>
                  {pending ? "Checking…" : "Turn on"}
                </Button>
              </div>
            </form>
          </div>
        </div>
      ) : (
        <div className="mt-2 text-sm text-slate-600">
          <p>Sign in with your password and a code from an app on your phone, so a stolen password is not enough.</p>
          <Button type="button" className="mt-4" onClick={start} disabled={pending} aria-busy={pending}>
            {pending ? "Preparing…" : "Set up two-factor sign-in"}
          </Button>
        </div>
      )}
    </Card>
  );
}

export function AuthorizedAppsCard({ grants }: { grants: Grant[] }) {
  const [pending, startTransition] = useTransition();
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();
  const [confirm, confirmDialog] = useConfirm();
  return (
    <Card className="p-0">
      {confirmDialog}
      <div className="px-6 pt-6">
        <h2 className="text-base font-semibold">Apps you allowed</h2>
        <p className="mt-1 text-sm text-slate-600">Third-party apps that act for you. Removing one stops it at once.</p>
        {error ? (
          <div className="mt-3">
            <Alert>{error}</Alert>
          </div>
        ) : null}
      </div>
      {grants.length ? (
        <ul className="mt-4 divide-y divide-slate-100 border-t border-slate-100" aria-label="Apps you allowed">
          {grants.map((grant) => (
            <li key={grant.id} className="flex flex-wrap items-center gap-3 px-6 py-3">
              <div className="min-w-0 flex-1">
                <p className="font-medium">{grant.app.name}</p>
                <p className="text-xs text-slate-500">
                  {grant.app.host} · allowed {formatDateTime(grant.created_at)}
                </p>
                <p className="mt-1 break-words text-xs text-slate-600">{grant.scopes.join(", ")}</p>
              </div>
              <Button
                type="button"
                variant="secondary"
                disabled={pending && busy === grant.id}
                aria-label={`Remove ${grant.app.name}`}
                onClick={async () => {
                  if (!(await confirm({ title: `Remove ${grant.app.name}'s access?`, body: "It stops working for you at once.", confirmLabel: "Remove access", tone: "danger" }))) return;
                  setBusy(grant.id);
                  startTransition(async () => {
                    const result = await revokeAppAction(grant.id);
                    if (!result.ok) setError(result.message);
                    setBusy(undefined);
                  });
                }}
              >
                {pending && busy === grant.id ? "Removing…" : "Remove"}
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="px-6 pb-6 pt-3 text-sm text-slate-500">You have not allowed any app.</p>
      )}
    </Card>
  );
}

type OwnToken = { id: string; name: string; permissions: string[]; expires_at: string; created_at: string; last_used_at: string | null };

/** The signed-in user's live API tokens, with one button that revokes them all. */
export function ApiTokensCard({ tokens }: { tokens: OwnToken[] }) {
  const [pending, startTransition] = useTransition();
  const [notice, setNotice] = useState<{ tone: "error" | "success"; text: string }>();
  const [confirm, confirmDialog] = useConfirm();
  return (
    <Card className="p-0">
      {confirmDialog}
      <div className="flex flex-wrap items-start gap-3 px-6 pt-6">
        <div className="min-w-0 flex-1">
          <h2 className="text-base font-semibold">Your API tokens</h2>
          <p className="mt-1 text-sm text-slate-600">Tokens you created for scripts and integrations. Create and revoke them one by one in Settings → API tokens.</p>
        </div>
        {tokens.length ? (
          <Button
            type="button"
            variant="secondary"
            disabled={pending}
            aria-busy={pending}
            onClick={async () => {
              const ok = await confirm({
                title: `Revoke all ${tokens.length} of your API tokens?`,
                body: "Every script and integration using them stops working at once. This cannot be undone.",
                confirmLabel: "Revoke all",
                tone: "danger",
              });
              if (!ok) return;
              startTransition(async () => {
                const result = await revokeAllTokensAction();
                setNotice(result.ok ? { tone: "success", text: `${result.data.revoked} token${result.data.revoked === 1 ? "" : "s"} revoked.` } : { tone: "error", text: result.message });
              });
            }}
          >
            {pending ? "Revoking…" : "Revoke all"}
          </Button>
        ) : null}
      </div>
      {notice ? (
        <div className="px-6 pt-3">
          <Alert tone={notice.tone}>{notice.text}</Alert>
        </div>
      ) : null}
      {tokens.length ? (
        <ul className="mt-4 divide-y divide-slate-100 border-t border-slate-100" aria-label="Your API tokens">
          {tokens.map((token) => (
            <li key={token.id} className="px-6 py-3">
              <p className="font-medium">{token.name}</p>
              <p className="text-xs text-slate-500">
                created {formatDateTime(token.created_at)} · expires {formatDateTime(token.expires_at)} ·{" "}
                {token.last_used_at ? `last used ${formatRelative(token.last_used_at)}` : "never used"}
              </p>
              <p className="mt-1 break-words text-xs text-slate-600">{token.permissions.join(", ")}</p>
            </li>
          ))}
        </ul>
      ) : (
        <p className="px-6 pb-6 pt-3 text-sm text-slate-500">You have no active API tokens.</p>
      )}
    </Card>
  );
}
