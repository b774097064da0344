"use client";

import { useState, useTransition } from "react";
import { updateInboxSettingsAction } from "@/app/(app)/settings/inbox/actions";
import { Alert, Card } from "@/components/ui/card";

export function InboxSettingsForm({ settings, canEdit }: { settings: { auto_assign_on_reply: boolean }; canEdit: boolean }) {
  const [autoAssign, setAutoAssign] = useState(settings.auto_assign_on_reply);
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string }>();
  const [pending, startTransition] = useTransition();

  function toggle(next: boolean) {
    setAutoAssign(next);
    startTransition(async () => {
      setMessage(undefined);
      const result = await updateInboxSettingsAction({ auto_assign_on_reply: next });
      if (result.ok) setMessage({ tone: "success", text: next ? "Replies now assign unassigned conversations." : "Replies no longer assign conversations." });
      else {
        setAutoAssign(!next);
        setMessage({ tone: "error", text: result.message });
      }
    });
  }

  return (
    <Card>
      <div className="flex items-start gap-3">
        <input
          id="auto-assign-on-reply"
          type="checkbox"
          role="switch"
          className="mt-1 h-4 w-4"
          checked={autoAssign}
          disabled={!canEdit || pending}
          onChange={(e) => toggle(e.target.checked)}
          aria-describedby="auto-assign-on-reply-hint"
        />
        <div>
          <label htmlFor="auto-assign-on-reply" className="text-sm font-medium text-slate-800">
            Assign a conversation to whoever replies first
          </label>
          <p id="auto-assign-on-reply-hint" className="mt-1 text-sm text-slate-600">
            When someone answers an unassigned conversation, it becomes theirs, so two people do not answer the same customer.
            {pending ? " Saving…" : ""}
          </p>
          {!canEdit ? <p className="mt-1 text-xs text-slate-500">Only administrators can change this.</p> : null}
        </div>
      </div>
      {message ? (
        <div className="mt-3">
          <Alert tone={message.tone}>{message.text}</Alert>
        </div>
      ) : null}
    </Card>
  );
}
