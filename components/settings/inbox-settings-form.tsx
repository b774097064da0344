"use client";

import { useState, useTransition } from "react";
import { updateInboxSettingsAction } from "@/app/(app)/settings/inbox/actions";
import { Alert, Card } from "@/components/ui/card";

type Settings = { auto_assign_on_reply: boolean; send_read_receipts: boolean; send_typing_indicator: boolean };
type Key = keyof Settings;

const switches: { key: Key; id: string; label: string; hint: string; on: string; off: string }[] = [
  {
    key: "auto_assign_on_reply",
    id: "auto-assign-on-reply",
    label: "Assign a conversation to whoever replies first",
    hint: "When someone answers an unassigned conversation, it becomes theirs, so two people do not answer the same customer.",
    on: "Replies now assign unassigned conversations.",
    off: "Replies no longer assign conversations.",
  },
  {
    key: "send_read_receipts",
    id: "send-read-receipts",
    label: "Send read receipts",
    hint: "When someone opens a conversation with new messages, the customer sees them as read (blue ticks). Never sent to blocked contacts.",
    on: "Customers now see when their messages are read.",
    off: "Customers no longer see when their messages are read.",
  },
  {
    key: "send_typing_indicator",
    id: "send-typing-indicator",
    label: "Show customers when someone is typing",
    hint: "While someone writes a reply, the customer sees \u201ctyping\u2026\u201d on their phone. Never shown to blocked contacts.",
    on: "Customers now see when someone is typing.",
    off: "Customers no longer see when someone is typing.",
  },
];

export function InboxSettingsForm({ settings, canEdit }: { settings: Settings; canEdit: boolean }) {
  const [values, setValues] = useState<Settings>(settings);
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string }>();
  const [pending, startTransition] = useTransition();

  function toggle(key: Key, next: boolean) {
    const before = values;
    const after = { ...values, [key]: next };
    setValues(after);
    startTransition(async () => {
      setMessage(undefined);
      const result = await updateInboxSettingsAction(after);
      const item = switches.find((s) => s.key === key)!;
      if (result.ok) setMessage({ tone: "success", text: next ? item.on : item.off });
      else {
        setValues(before);
        setMessage({ tone: "error", text: result.message });
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
                {item.label}
              </label>
              <p id={`${item.id}-hint`} className="mt-1 text-sm text-slate-600">
                {item.hint}
              </p>
            </div>
          </div>
        ))}
        {pending ? <p className="text-sm text-slate-600">Saving…</p> : null}
        {!canEdit ? <p className="text-xs text-slate-500">Only administrators can change these.</p> : null}
      </div>
      {message ? (
        <div className="mt-3">
          <Alert tone={message.tone}>{message.text}</Alert>
        </div>
      ) : null}
    </Card>
  );
}
