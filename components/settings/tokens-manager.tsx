"use client";

import { useState } from "react";
import { createTokenAction, revokeTokenAction } from "@/app/(app)/settings/tokens/actions";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { Alert, Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { formatDateTime, formatRelative } from "@/components/ui/format";
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
  { days: "1", label: "1 day" },
  { days: "7", label: "7 days" },
  { days: "30", label: "30 days" },
  { days: "90", label: "90 days" },
  { days: "365", label: "1 year" },
  { days: "custom", label: "Custom date…" },
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
    if (!(await confirm({ title: "Revoke this token?", body: "Integrations using it stop working at once.", confirmLabel: "Revoke token" }))) return;
    setRevoking(id);
    startTransition(async () => {
      const result = await revokeTokenAction(id);
      if (!result.ok) setMessage(result.message);
      setRevoking(undefined);
    });
  }

  return (
    <div className="flex flex-col gap-6">
      {confirmDialog}
      {created ? (
        <Card className="border-amber-300 bg-amber-50">
          <h2 className="font-semibold text-amber-900">Copy your new token “{created.name}” now</h2>
          <p className="mt-1 text-sm text-amber-900">It will not be shown again. Store it somewhere safe; anyone holding it can act as you within its scopes.</p>
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <code data-testid="new-token" className="min-w-0 flex-1 break-all rounded-md border border-amber-200 bg-white px-3 py-2 font-mono text-xs">
              {created.token}
            </code>
            <CopyButton value={created.token} label="Copy token" />
            <Button type="button" variant="ghost" onClick={() => setCreated(undefined)}>
              Done
            </Button>
          </div>
        </Card>
      ) : null}

      <Card>
        <h2 className="text-base font-semibold">Create a token</h2>
        <form onSubmit={onSubmit} className="mt-4 flex flex-col gap-5" noValidate>
          {message && !Object.keys(errors).length ? <Alert>{message}</Alert> : null}
          <Field label="Name" name="name" required maxLength={100} placeholder="e.g. CRM sync" error={errors.name} />
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">Scopes</legend>
            {errors.permissions || errors["permissions.0"] ? (
              <p className="mt-1 text-xs text-red-600">{errors.permissions ?? errors["permissions.0"]}</p>
            ) : null}
            <div className="mt-2 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
              {groups.map((group) => (
                <fieldset key={group.area} className="rounded-md border border-slate-200 p-3">
                  <legend className="px-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{group.area}</legend>
                  {group.scopes.map((scope) => (
                    <label key={scope} className="flex items-center gap-2 py-0.5 text-sm">
                      <input type="checkbox" name="permissions" value={scope} className="h-4 w-4 accent-brand-600" />
                      <span className="font-mono text-xs">{scope}</span>
                    </label>
                  ))}
                </fieldset>
              ))}
            </div>
          </fieldset>
          <div className="flex flex-wrap items-end gap-4">
            <div className="flex flex-col gap-1">
              <label htmlFor="expires_in_days" className="text-sm font-medium text-slate-700">
                Expires in
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
                    {p.label}
                  </option>
                ))}
              </select>
            </div>
            {preset === "custom" ? (
              <Field label="Expiry date" name="expires_on" type="date" min={isoDay(1)} max={isoDay(365)} required error={errors.expires_at} />
            ) : errors.expires_at ? (
              <p className="text-xs text-red-600">{errors.expires_at}</p>
            ) : null}
          </div>
          <div>
            <Button type="submit" disabled={pending} aria-busy={pending}>
              {pending ? "Creating…" : "Create token"}
            </Button>
          </div>
        </form>
      </Card>

      <Card className="p-0">
        <div className="border-b border-slate-200 px-6 py-4">
          <h2 className="text-base font-semibold">Your tokens</h2>
        </div>
        {tokens.length === 0 ? (
          <p className="px-6 py-8 text-sm text-slate-500">No API tokens yet.</p>
        ) : (
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Tokens table">
            <table className="w-full text-left text-sm">
              <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-6 py-2 font-medium">Name</th>
                  {showOwner ? <th scope="col" className="px-3 py-2 font-medium">Owner</th> : null}
                  <th scope="col" className="px-3 py-2 font-medium">Scopes</th>
                  <th scope="col" className="px-3 py-2 font-medium">Last used</th>
                  <th scope="col" className="px-3 py-2 font-medium">Expires</th>
                  <th scope="col" className="px-6 py-2 font-medium"><span className="sr-only">Actions</span></th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {tokens.map((token) => {
                  const expired = isPast(token.expires_at);
                  return (
                    <tr key={token.id} className={token.revoked_at || expired ? "text-slate-500" : ""}>
                      <td className="px-6 py-3 font-medium">{token.name}</td>
                      {showOwner ? <td className="px-3 py-3">{token.user?.name}</td> : null}
                      <td className="max-w-xs px-3 py-3 font-mono text-xs">{token.permissions.join(", ")}</td>
                      <td className="whitespace-nowrap px-3 py-3" title={formatDateTime(token.last_used_at)}>{formatRelative(token.last_used_at)}</td>
                      <td className="whitespace-nowrap px-3 py-3">{formatDateTime(token.expires_at)}</td>
                      <td className="px-6 py-3 text-right">
                        {token.revoked_at ? (
                          <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700">Revoked</span>
                        ) : expired ? (
                          <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700">Expired</span>
                        ) : (
                          <Button type="button" variant="secondary" onClick={() => revoke(token.id)} disabled={revoking === token.id} aria-label={`Revoke ${token.name}`}>
                            {revoking === token.id ? "Revoking…" : "Revoke"}
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
