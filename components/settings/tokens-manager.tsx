"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { useAppFormat } from "@/components/i18n/use-app-format";
import { createTokenAction, revokeTokenAction } from "@/app/(app)/settings/tokens/actions";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { Alert, Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { useFormAction } from "@/components/ui/use-form-action";

type Token = {
  id: string;
  name: string;
  permissions: string[];
  expires_at: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  user?: { id: string; name: string };
};

const presets = [
  { days: "1", label: "preset.day1" },
  { days: "7", label: "preset.days7" },
  { days: "30", label: "preset.days30" },
  { days: "90", label: "preset.days90" },
  { days: "365", label: "preset.year1" },
  { days: "custom", label: "preset.custom" },
];

const isPast = (iso: string) => new Date(iso).getTime() < Date.now();

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

export function TokensManager({
  tokens,
  groups,
  showOwner,
}: {
  tokens: Token[];
  groups: { area: string; scopes: string[] }[];
  showOwner: boolean;
}) {
  const t = useTranslations("settingsTokens");
  const errorMessage = useApiErrorMessage();
  const format = useAppFormat();
  const [preset, setPreset] = useState("30");
  const [message, setMessage] = useState<string>();
  const [created, setCreated] = useState<{ name: string; token: string }>();
  const { pending, startTransition, errors, onSubmit } = useFormAction(createTokenAction, {
    onSuccess: (token, form) => {
      setCreated({ name: token.name, token: token.token });
      form.reset();
      setPreset("30");
    },
    onMessage: setMessage,
    messageWithFieldErrors: true,
  });
  const [revoking, setRevoking] = useState<string>();
  const [confirm, confirmDialog] = useConfirm();

  async function revoke(id: string) {
    if (!(await confirm({ title: t("confirmTitle"), body: t("confirmBody"), confirmLabel: t("confirmAction") }))) return;
    setRevoking(id);
    startTransition(async () => {
      const result = await revokeTokenAction(id);
      if (!result.ok) setMessage(errorMessage(result));
      setRevoking(undefined);
    });
  }

  return (
    <div className="flex flex-col gap-6">
      {confirmDialog}
      {created ? (
        <Card className="border-amber-300 bg-amber-50">
          <h2 className="font-semibold text-amber-900">{t("copyNow", { name: created.name })}</h2>
          <p className="mt-1 text-sm text-amber-900">{t("notShownAgain")}</p>
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <code data-testid="new-token" translate="no" className="min-w-0 flex-1 break-all rounded-md border border-amber-200 bg-white px-3 py-2 font-mono text-xs">
              {created.token}
            </code>
            <CopyButton value={created.token} label={t("copyToken")} />
            <Button type="button" variant="ghost" onClick={() => setCreated(undefined)}>
              {t("done")}
            </Button>
          </div>
        </Card>
      ) : null}

      <Card>
        <h2 className="text-base font-semibold">{t("create")}</h2>
        <form onSubmit={onSubmit} className="mt-4 flex flex-col gap-5" noValidate>
          {message && !Object.keys(errors).length ? <Alert>{message}</Alert> : null}
          <Field label={t("name")} name="name" required maxLength={100} placeholder={t("namePlaceholder")} error={errors.name} />
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">{t("scopes")}</legend>
            {errors.permissions || errors["permissions.0"] ? (
              <p className="mt-1 text-xs text-red-600">{errors.permissions ?? errors["permissions.0"]}</p>
            ) : null}
            <div className="mt-2 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
              {groups.map((group) => (
                <fieldset key={group.area} className="rounded-md border border-slate-200 p-3">
                  <legend translate="no" className="px-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{group.area}</legend>
                  {group.scopes.map((scope) => (
                    <label key={scope} className="flex items-center gap-2 py-0.5 text-sm">
                      <input type="checkbox" name="permissions" value={scope} className="h-4 w-4 accent-brand-600" />
                      <span className="font-mono text-xs" translate="no">
                        {scope}
                      </span>
                    </label>
                  ))}
                </fieldset>
              ))}
            </div>
          </fieldset>
          <div className="flex flex-wrap items-end gap-4">
            <div className="flex flex-col gap-1">
              <label htmlFor="expires_in_days" className="text-sm font-medium text-slate-700">
                {t("expiresIn")}
              </label>
              <select
                id="expires_in_days"
                name="expires_in_days"
                value={preset}
                onChange={(e) => setPreset(e.target.value)}
                className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
              >
                {presets.map((p) => (
                  <option key={p.days} value={p.days}>
                    {t(p.label)}
                  </option>
                ))}
              </select>
            </div>
            {preset === "custom" ? (
              <Field label={t("expiryDate")} name="expires_on" type="date" min={isoDay(1)} max={isoDay(365)} required error={errors.expires_at} />
            ) : errors.expires_at ? (
              <p className="text-xs text-red-600">{errors.expires_at}</p>
            ) : null}
          </div>
          <div>
            <Button type="submit" disabled={pending} aria-busy={pending}>
              {pending ? t("creating") : t("createAction")}
            </Button>
          </div>
        </form>
      </Card>

      <Card className="p-0">
        <div className="border-b border-slate-200 px-6 py-4">
          <h2 className="text-base font-semibold">{t("yours")}</h2>
        </div>
        {tokens.length === 0 ? (
          <p className="px-6 py-8 text-sm text-slate-500">{t("empty")}</p>
        ) : (
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={t("table")}>
            <table className="w-full text-start text-sm">
              <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-6 py-2 font-medium">{t("name")}</th>
                  {showOwner ? <th scope="col" className="px-3 py-2 font-medium">{t("owner")}</th> : null}
                  <th scope="col" className="px-3 py-2 font-medium">{t("scopes")}</th>
                  <th scope="col" className="px-3 py-2 font-medium">{t("lastUsed")}</th>
                  <th scope="col" className="px-3 py-2 font-medium">{t("expires")}</th>
                  <th scope="col" className="px-6 py-2 font-medium"><span className="sr-only">{t("actions")}</span></th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {tokens.map((token) => {
                  const expired = isPast(token.expires_at);
                  return (
                    <tr key={token.id} className={token.revoked_at || expired ? "text-slate-500" : ""}>
                      <td className="px-6 py-3 font-medium" data-user-content>
                        {token.name}
                      </td>
                      {showOwner ? <td className="px-3 py-3" data-user-content>
                          {token.user?.name}
                        </td> : null}
                      <td className="max-w-xs px-3 py-3 font-mono text-xs" translate="no">{token.permissions.join(", ")}</td>
                      <td className="whitespace-nowrap px-3 py-3">
                        {token.last_used_at ? (
                          <time dateTime={token.last_used_at} title={format.dateTime(token.last_used_at)}>
                            {format.relative(token.last_used_at)}
                          </time>
                        ) : (
                          format.relative(null)
                        )}
                      </td>
                      <td className="whitespace-nowrap px-3 py-3"><time dateTime={token.expires_at}>{format.dateTime(token.expires_at)}</time></td>
                      <td className="px-6 py-3 text-end">
                        {token.revoked_at ? (
                          <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700">{t("revoked")}</span>
                        ) : expired ? (
                          <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700">{t("expired")}</span>
                        ) : (
                          <Button type="button" variant="secondary" onClick={() => revoke(token.id)} disabled={revoking === token.id} aria-label={t("revokeName", { name: token.name })}>
                            {revoking === token.id ? t("revoking") : t("revoke")}
                          </Button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
