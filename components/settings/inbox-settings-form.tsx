"use client";

import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { updateInboxSettingsAction } from "@/app/(app)/settings/inbox/actions";
import { Alert, Card } from "@/components/ui/card";

type Settings = { auto_assign_on_reply: boolean; send_read_receipts: boolean; send_typing_indicator: boolean };
type Key = keyof Settings;

// Catalog keys (namespace settingsInbox) of each switch's label, hint and the two confirmations.
const switches: { key: Key; id: string; label: string; hint: string; on: string; off: string }[] = [
  { key: "auto_assign_on_reply", id: "auto-assign-on-reply", label: "switch.autoAssign.label", hint: "switch.autoAssign.hint", on: "switch.autoAssign.on", off: "switch.autoAssign.off" },
  { key: "send_read_receipts", id: "send-read-receipts", label: "switch.readReceipts.label", hint: "switch.readReceipts.hint", on: "switch.readReceipts.on", off: "switch.readReceipts.off" },
  { key: "send_typing_indicator", id: "send-typing-indicator", label: "switch.typing.label", hint: "switch.typing.hint", on: "switch.typing.on", off: "switch.typing.off" },
];

export function InboxSettingsForm({ settings, canEdit }: { settings: Settings; canEdit: boolean }) {
  const [values, setValues] = useState<Settings>(settings);
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string }>();
  const [pending, startTransition] = useTransition();
  const t = useTranslations("settingsInbox");
  const errorMessage = useApiErrorMessage();

  function toggle(key: Key, next: boolean) {
    const before = values;
    const after = { ...values, [key]: next };
    setValues(after);
    startTransition(async () => {
      setMessage(undefined);
      const result = await updateInboxSettingsAction(after);
      const item = switches.find((s) => s.key === key)!;
      if (result.ok) setMessage({ tone: "success", text: next ? t(item.on) : t(item.off) });
      else {
        setValues(before);
        setMessage({ tone: "error", text: errorMessage(result) });
      }
    });
  }

  return (
    <Card>
      <div className="space-y-4">
        {switches.map((item) => (
          <div key={item.key} className="flex items-start gap-3">
            <input
              id={item.id}
              type="checkbox"
              role="switch"
              className="mt-1 h-4 w-4"
              checked={values[item.key]}
              disabled={!canEdit || pending}
              onChange={(e) => toggle(item.key, e.target.checked)}
              aria-describedby={`${item.id}-hint`}
            />
            <div>
              <label htmlFor={item.id} className="text-sm font-medium text-slate-800">
                {t(item.label)}
              </label>
              <p id={`${item.id}-hint`} className="mt-1 text-sm text-slate-600">
                {t(item.hint)}
              </p>
            </div>
          </div>
        ))}
        {pending ? <p className="text-sm text-slate-600">{t("saving")}</p> : null}
        {!canEdit ? <p className="text-xs text-slate-500">{t("adminOnly")}</p> : null}
      </div>
      {message ? (
        <div className="mt-3">
          <Alert tone={message.tone}>{message.text}</Alert>
        </div>
      ) : null}
    </Card>
  );
}
