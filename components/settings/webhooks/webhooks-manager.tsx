"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { createWebhookAction } from "@/app/(app)/settings/webhooks/actions";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { formatUtc } from "./format";
import { StatusBadge } from "./status-badge";
import { WebhookActions } from "./webhook-actions";
import type { WebhookOutput } from "@/lib/webhooks/schemas";

type Webhook = Pick<WebhookOutput, "id" | "url" | "events" | "status" | "status_reason" | "created_at">;
type Created = Webhook & { secret: string };

const groupLabels: Record<string, string> = {
  conversation: "Conversations",
  message: "Messages",
  user: "Users",
  webhook: "Webhooks",
  plant: "Plant store",
};

function CreatedSecret({ webhook, onDone }: { webhook: Created; onDone: () => void }) {
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
      <h2 className="text-base font-semibold text-slate-900">Webhook added</h2>
      <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-700">
        <StatusBadge status={webhook.status} />
        <span className="break-all">{webhook.url}</span>
      </div>
      {webhook.status === "active" ? (
        <p className="mt-2 text-sm text-emerald-800">The endpoint answered the verification challenge; it will receive events from now on.</p>
      ) : (
        <div className="mt-3">
          <Alert>{webhook.status_reason ?? "The verification failed."} Fix the endpoint, then use “Verify again”.</Alert>
        </div>
      )}
      <div className="mt-4">
        <Alert tone="info">
          <strong>Copy the signing secret now. It is shown only this once.</strong> Your endpoint uses it to check the
          X-Service-Signature and webhook-signature headers of every delivery.
        </Alert>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <code className="min-w-0 flex-1 break-all rounded-md border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-sm" aria-label="The new signing secret">
            {webhook.secret}
          </code>
          <Button type="button" variant="secondary" onClick={copy}>
            {copied === "yes" ? "Copied" : "Copy"}
          </Button>
        </div>
        {copied === "failed" ? <p className="mt-1 text-xs text-red-600">Copying is blocked here; select the secret and copy it by hand.</p> : null}
        <span className="sr-only" role="status">
          {copied === "yes" ? "Secret copied to the clipboard" : ""}
        </span>
      </div>
      <div className="mt-4">
        <Button type="button" onClick={onDone}>
          I have stored the secret
        </Button>
      </div>
    </Card>
  );
}

export function WebhooksManager({ webhooks, eventGroups, limit }: { webhooks: Webhook[]; eventGroups: Record<string, string[]>; limit: number }) {
  const router = useRouter();
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
      const allOn = types.every((t) => next.has(t));
      for (const t of types) {
        if (allOn) next.delete(t);
        else next.add(t);
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
      if (!Object.keys(result.fieldErrors).length) setFormError(result.message);
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
        <h2 className="text-base font-semibold text-slate-900">Your webhooks</h2>
        {webhooks.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No webhooks yet. Add one below to receive events at your endpoint.</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-200">
            {webhooks.map((w) => (
              <li key={w.id} className="flex flex-col gap-2 py-4">
                <div className="flex flex-wrap items-center gap-2">
                  <StatusBadge status={w.status} />
                  <Link href={`/settings/webhooks/${w.id}`} className="min-w-0 break-all font-medium text-brand-700 hover:underline">
                    {w.url}
                  </Link>
                </div>
                <p className="text-xs text-slate-500">
                  {w.events.includes("*") ? "All events" : w.events.join(", ")} · added {formatUtc(w.created_at, { seconds: false })}
                </p>
                {w.status_reason && w.status !== "active" ? <p className="text-sm text-slate-700">{w.status_reason}</p> : null}
                <div className="flex flex-wrap items-start gap-2">
                  <Link href={`/settings/webhooks/${w.id}`} className="rounded-md border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50">
                    Deliveries and stats
                  </Link>
                  <WebhookActions webhook={w} />
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Card>
        <h2 className="text-base font-semibold text-slate-900">Add a webhook</h2>
        <p className="mt-1 text-sm text-slate-600">
          We send a signed <code>webhook.verified</code> event with a challenge; your endpoint must answer 200 with exactly the
          challenge as the body within 10 seconds. {full ? <strong>You have reached the limit of {limit} webhooks.</strong> : null}
        </p>
        <form key={formKey} onSubmit={onSubmit} className="mt-4 flex flex-col gap-4" noValidate>
          {formError ? <Alert>{formError}</Alert> : null}
          <Field label="Endpoint URL" name="url" type="url" required placeholder="https://example.com/webhooks/chorus" error={errors.url} hint="https only, on a public address." />
          <fieldset className="flex flex-col gap-3" aria-describedby={errors.events ? "events-error" : undefined}>
            <legend className="text-sm font-medium text-slate-700">Events</legend>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} className="h-4 w-4 accent-brand-600" />
              All events, including ones added later
            </label>
            <div className={`grid gap-4 sm:grid-cols-2 ${all ? "opacity-50" : ""}`}>
              {Object.entries(eventGroups).map(([group, types]) => (
                <fieldset key={group} className="rounded-md border border-slate-200 p-3" disabled={all}>
                  <legend className="px-1 text-sm font-medium text-slate-800">
                    <label className="flex items-center gap-2">
                      <input
                        type="checkbox"
                        className="h-4 w-4 accent-brand-600"
                        checked={types.every((t) => selected.has(t))}
                        onChange={() => toggleGroup(types)}
                        aria-label={`All ${groupLabels[group] ?? group} events`}
                      />
                      {groupLabels[group] ?? group}
                    </label>
                  </legend>
                  <div className="mt-1 flex flex-col gap-1">
                    {types.map((type) => (
                      <label key={type} className="flex items-center gap-2 text-sm text-slate-700">
                        <input type="checkbox" className="h-4 w-4 accent-brand-600" checked={selected.has(type)} onChange={() => toggle(type)} />
                        <code className="text-xs">{type}</code>
                      </label>
                    ))}
                  </div>
                </fieldset>
              ))}
            </div>
            {errors.events ? (
              <p id="events-error" className="text-xs text-red-600">
                Events: {errors.events}
              </p>
            ) : null}
          </fieldset>
          <Field
            label="Signing secret (optional)"
            name="secret"
            type="password"
            autoComplete="off"
            error={errors.secret}
            hint="whsec_ followed by base64, the Standard Webhooks format. Leave empty and we generate one (recommended)."
          />
          <div>
            <Button type="submit" disabled={pending || full} aria-busy={pending}>
              {pending ? "Adding and sending the challenge (up to 10 s)…" : "Add and verify"}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
