"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useAppFormat } from "@/components/i18n/use-app-format";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { createWebhookAction } from "@/app/(app)/settings/webhooks/actions";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { StatusBadge } from "./status-badge";
import { WebhookActions } from "./webhook-actions";
import type { WebhookOutput } from "@/lib/webhooks/schemas";

type Webhook = Pick<WebhookOutput, "id" | "url" | "events" | "status" | "status_reason" | "created_at">;
type Created = Webhook & { secret: string };

// Catalog keys (namespace webhooks) of the event groups; an unknown group shows its code.
const groupLabels: Record<string, string> = {
  conversation: "group.conversation",
  message: "group.message",
  user: "group.user",
  webhook: "group.webhook",
  plant: "group.plant",
};

function CreatedSecret({ webhook, onDone }: { webhook: Created; onDone: () => void }) {
  const t = useTranslations("webhooks.created");
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(webhook.secret);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
  }
  return (
    <Card className="border-amber-300">
      <h2 className="text-base font-semibold text-slate-900">{t("title")}</h2>
      <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-700">
        <StatusBadge status={webhook.status} />
        <span className="break-all" translate="no">
          {webhook.url}
        </span>
      </div>
      {webhook.status === "active" ? (
        <p className="mt-2 text-sm text-emerald-800">{t("verified")}</p>
      ) : (
        <div className="mt-3">
          <Alert>
            {webhook.status_reason ?? t("failed")} {t("fixIt")}
          </Alert>
        </div>
      )}
      <div className="mt-4">
        <Alert tone="info">
          {t.rich("copyNow", { strong: (chunks) => <strong>{chunks}</strong>, code: (chunks) => <code translate="no">{chunks}</code> })}
        </Alert>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <code className="min-w-0 flex-1 break-all rounded-md border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-sm" aria-label={t("secretLabel")} translate="no">
            {webhook.secret}
          </code>
          <Button type="button" variant="secondary" onClick={copy}>
            {copied === "yes" ? t("copied") : t("copy")}
          </Button>
        </div>
        {copied === "failed" ? <p className="mt-1 text-xs text-red-600">{t("copyBlocked")}</p> : null}
        <span className="sr-only" role="status">
          {copied === "yes" ? t("copiedStatus") : ""}
        </span>
      </div>
      <div className="mt-4">
        <Button type="button" onClick={onDone}>
          {t("stored")}
        </Button>
      </div>
    </Card>
  );
}

export function WebhooksManager({ webhooks, eventGroups, limit }: { webhooks: Webhook[]; eventGroups: Record<string, string[]>; limit: number }) {
  const router = useRouter();
  const t = useTranslations("webhooks");
  const format = useAppFormat();
  const errorMessage = useApiErrorMessage();
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [all, setAll] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [created, setCreated] = useState<Created>();
  const [formKey, setFormKey] = useState(0);

  function toggle(type: string) {
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(type)) next.delete(type);
      else next.add(type);
      return next;
    });
  }

  function toggleGroup(types: string[]) {
    setSelected((current) => {
      const next = new Set(current);
      const allOn = types.every((type) => next.has(type));
      for (const type of types) {
        if (allOn) next.delete(type);
        else next.add(type);
      }
      return next;
    });
  }

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const secret = String(form.get("secret") ?? "");
    const input = {
      url: String(form.get("url") ?? ""),
      events: all ? ["*"] : [...selected],
      ...(secret ? { secret } : {}),
    };
    setPending(true);
    setErrors({});
    setFormError(undefined);
    const result = await createWebhookAction(input);
    setPending(false);
    if (!result.ok) {
      setErrors(result.fieldErrors);
      if (!Object.keys(result.fieldErrors).length) setFormError(errorMessage(result));
      return;
    }
    setCreated(result.data);
    setSelected(new Set());
    setAll(false);
    setFormKey((k) => k + 1);
    router.refresh();
  }

  const full = webhooks.length >= limit;
  return (
    <div className="flex flex-col gap-6">
      {created ? <CreatedSecret webhook={created} onDone={() => setCreated(undefined)} /> : null}

      <Card>
        <h2 className="text-base font-semibold text-slate-900">{t("list.title")}</h2>
        {webhooks.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">{t("list.empty")}</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-200">
            {webhooks.map((w) => (
              <li key={w.id} className="flex flex-col gap-2 py-4">
                <div className="flex flex-wrap items-center gap-2">
                  <StatusBadge status={w.status} />
                  <Link href={`/settings/webhooks/${w.id}`} className="min-w-0 break-all font-medium text-brand-700 hover:underline" translate="no">
                    {w.url}
                  </Link>
                </div>
                <p className="text-xs text-slate-500">
                  {w.events.includes("*") ? t("list.allEvents") : <span translate="no">{w.events.join(", ")}</span>} · {t("list.added", { date: format.dateTime(w.created_at) })}
                </p>
                {w.status_reason && w.status !== "active" ? (
                  <p className="text-sm text-slate-700" translate="no">
                    {w.status_reason}
                  </p>
                ) : null}
                <div className="flex flex-wrap items-start gap-2">
                  <Link href={`/settings/webhooks/${w.id}`} className="rounded-md border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50">
                    {t("list.deliveries")}
                  </Link>
                  <WebhookActions webhook={w} />
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Card>
        <h2 className="text-base font-semibold text-slate-900">{t("add.title")}</h2>
        <p className="mt-1 text-sm text-slate-600">
          {t.rich("add.challenge", { code: (chunks) => <code translate="no">{chunks}</code> })} {full ? <strong>{t("add.limit", { limit })}</strong> : null}
        </p>
        <form key={formKey} onSubmit={onSubmit} className="mt-4 flex flex-col gap-4" noValidate>
          {formError ? <Alert>{formError}</Alert> : null}
          <Field label={t("add.url")} name="url" type="url" required placeholder="https://example.com/webhooks/chorus" translate="no" error={errors.url} hint={t("add.urlHint")} />
          <fieldset className="flex flex-col gap-3" aria-describedby={errors.events ? "events-error" : undefined}>
            <legend className="text-sm font-medium text-slate-700">{t("add.events")}</legend>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} className="h-4 w-4 accent-brand-600" />
              {t("add.allLater")}
            </label>
            <div className={`grid gap-4 sm:grid-cols-2 ${all ? "opacity-50" : ""}`}>
              {Object.entries(eventGroups).map(([group, types]) => (
                <fieldset key={group} className="rounded-md border border-slate-200 p-3" disabled={all}>
                  <legend className="px-1 text-sm font-medium text-slate-800">
                    <label className="flex items-center gap-2">
                      <input
                        type="checkbox"
                        className="h-4 w-4 accent-brand-600"
                        checked={types.every((type) => selected.has(type))}
                        onChange={() => toggleGroup(types)}
                        aria-label={t("add.allGroup", { group: groupLabels[group] ? t(groupLabels[group]) : group })}
                      />
                      {groupLabels[group] ? t(groupLabels[group]) : <span translate="no">{group}</span>}
                    </label>
                  </legend>
                  <div className="mt-1 flex flex-col gap-1">
                    {types.map((type) => (
                      <label key={type} className="flex items-center gap-2 text-sm text-slate-700">
                        <input type="checkbox" className="h-4 w-4 accent-brand-600" checked={selected.has(type)} onChange={() => toggle(type)} />
                        <code className="text-xs" translate="no">
                          {type}
                        </code>
                      </label>
                    ))}
                  </div>
                </fieldset>
              ))}
            </div>
            {errors.events ? (
              <p id="events-error" className="text-xs text-red-600">
                {t("add.eventsError", { error: errors.events })}
              </p>
            ) : null}
          </fieldset>
          <Field
            label={t("add.secret")}
            name="secret"
            type="password"
            autoComplete="off"
            error={errors.secret}
            hint={t("add.secretHint")}
          />
          <div>
            <Button type="submit" disabled={pending || full} aria-busy={pending}>
              {pending ? t("add.adding") : t("add.add")}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
