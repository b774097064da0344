"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState, useTransition } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { saveNotificationPreferencesAction } from "@/app/(app)/settings/notifications/actions";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { disablePush, enablePush, pushState, type PushState } from "@/components/pwa/push-client";
import type { NotificationPreferencesInput } from "@/lib/push/schemas";

type Choice = "new_messages" | "mentions" | "assignments" | "sla_warnings";
// Catalog keys (namespace settingsNotifications) of each choice's label and hint.
const choices: { key: Choice; label: string; hint: string }[] = [
  { key: "new_messages", label: "choice.newMessages.label", hint: "choice.newMessages.hint" },
  { key: "mentions", label: "choice.mentions.label", hint: "choice.mentions.hint" },
  { key: "assignments", label: "choice.assignments.label", hint: "choice.assignments.hint" },
  { key: "sla_warnings", label: "choice.slaWarnings.label", hint: "choice.slaWarnings.hint" },
];

const stateText: Record<PushState, string> = {
  unsupported: "state.unsupported",
  denied: "state.denied",
  off: "state.off",
  on: "state.on",
};

export function NotificationSettings({ preferences, vapidPublicKey }: { preferences: NotificationPreferencesInput; vapidPublicKey: string }) {
  const [device, setDevice] = useState<PushState>();
  const [values, setValues] = useState(preferences);
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string }>();
  const [saving, startSaving] = useTransition();
  const [busy, setBusy] = useState(false);
  const t = useTranslations("settingsNotifications");
  const errorMessage = useApiErrorMessage();

  useEffect(() => {
    pushState().then(setDevice);
  }, []);

  function toggleQuiet(on: boolean) {
    // Quiet hours are read in the person's own zone: until they chose one, the browser's.
    const zone = values.time_zone === "UTC" ? (Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC") : values.time_zone;
    setValues({ ...values, quiet_start: on ? "22:00" : null, quiet_end: on ? "08:00" : null, time_zone: on ? zone : values.time_zone });
  }

  async function toggleDevice() {
    setBusy(true);
    setMessage(undefined);
    try {
      const result = device === "on" ? await disablePush() : await enablePush(vapidPublicKey);
      setDevice(result.state);
      if (result.error) setMessage({ tone: "error", text: result.error });
    } finally {
      setBusy(false);
    }
  }

  function save(event: React.FormEvent) {
    event.preventDefault();
    setMessage(undefined);
    startSaving(async () => {
      const result = await saveNotificationPreferencesAction(values);
      if (result.ok) setMessage({ tone: "success", text: t("saved") });
      else setMessage({ tone: "error", text: Object.values(result.fieldErrors)[0] ?? errorMessage(result) });
    });
  }

  const quiet = values.quiet_start !== null;
  return (
    <div className="space-y-4">
      <Card>
        <h2 className="text-base font-semibold text-slate-900">{t("thisDevice")}</h2>
        <p className="mt-1 text-sm text-slate-600" aria-live="polite">
          {device ? t(stateText[device]) : t("state.checking")}
        </p>
        {device !== "unsupported" && device !== undefined && (
          <Button type="button" className="mt-3 min-h-11" variant={device === "on" ? "secondary" : "primary"} disabled={busy || device === "denied"} onClick={toggleDevice}>
            {device === "on" ? t("turnOff") : t("turnOn")}
          </Button>
        )}
      </Card>
      <Card>
        <form onSubmit={save} className="space-y-4">
          <fieldset>
            <legend className="text-base font-semibold text-slate-900">{t("notifyAbout")}</legend>
            <div className="mt-2 space-y-1">
              {choices.map((choice) => (
                <label key={choice.key} className="flex min-h-11 cursor-pointer items-start gap-3 py-1">
                  <input
                    type="checkbox"
                    className="mt-1 h-5 w-5 shrink-0"
                    checked={values[choice.key]}
                    onChange={(e) => setValues({ ...values, [choice.key]: e.target.checked })}
                  />
                  <span>
                    <span className="block text-sm font-medium text-slate-800">{t(choice.label)}</span>
                    <span className="block text-sm text-slate-600">{t(choice.hint)}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend className="text-base font-semibold text-slate-900">{t("quietHours")}</legend>
            <label className="mt-2 flex min-h-11 cursor-pointer items-center gap-3">
              <input
                type="checkbox"
                className="h-5 w-5 shrink-0"
                checked={quiet}
                onChange={(e) => toggleQuiet(e.target.checked)}
              />
              <span className="text-sm font-medium text-slate-800">{t("quietAtNight")}</span>
            </label>
            {quiet && (
              <div className="mt-2 flex flex-wrap items-end gap-3">
                <label className="text-sm text-slate-700">
                  {t("from")}
                  <input type="time" required className="mt-1 block min-h-11 rounded-md border border-slate-300 px-3" value={values.quiet_start ?? ""} onChange={(e) => setValues({ ...values, quiet_start: e.target.value })} />
                </label>
                <label className="text-sm text-slate-700">
                  {t("until")}
                  <input type="time" required className="mt-1 block min-h-11 rounded-md border border-slate-300 px-3" value={values.quiet_end ?? ""} onChange={(e) => setValues({ ...values, quiet_end: e.target.value })} />
                </label>
                <label className="w-full text-sm text-slate-700 sm:w-auto sm:min-w-56 sm:flex-1">
                  {t("timeZone")}
                  <input translate="no" className="mt-1 block min-h-11 w-full max-w-xs rounded-md border border-slate-300 px-3" value={values.time_zone} onChange={(e) => setValues({ ...values, time_zone: e.target.value })} />
                </label>
              </div>
            )}
          </fieldset>
          {message && <Alert tone={message.tone}>{message.text}</Alert>}
          <Button type="submit" className="min-h-11" disabled={saving}>
            {t("save")}
          </Button>
        </form>
      </Card>
    </div>
  );
}
