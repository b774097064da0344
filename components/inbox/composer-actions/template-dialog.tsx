"use client";

import { useRef, useState } from "react";
import type { ConversationItem, MessageItem } from "../types";
import { DialogShell } from "./dialog-shell";
import { sendKind } from "./send-kind";
import { type TemplateChoice, TemplateFields, useApprovedTemplates } from "./template-fields";

/** The template picker of a conversation: the one way to write after the 24-hour window. */
export function TemplateDialog({
  conversation,
  onQueued,
  label = "Template",
  prominent = false,
}: {
  conversation: ConversationItem;
  onQueued: (message: MessageItem) => void;
  label?: string;
  prominent?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [opened, setOpened] = useState(false);
  const [choice, setChoice] = useState<TemplateChoice | null>(null);
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const templates = useApprovedTemplates(opened);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(undefined);
    setErrors({});
    if (!choice) {
      setErrors({ "template.name": "Choose a template." });
      return;
    }
    if (choice.variables.some((v) => !v.trim())) {
      setErrors({ "template.variables": "Fill in every value." });
      return;
    }
    setPending(true);
    const result = await sendKind({ to: conversation.contact.phone, conversation_id: conversation.id, type: "template", template: choice });
    setPending(false);
    if (!result.ok) {
      setErrors(result.fieldErrors);
      setError(result.message);
      return;
    }
    onQueued(result.data);
    dialog.current?.close();
  }

  return (
    <>
      <button
        type="button"
        className={prominent ? "rounded-md bg-brand-600 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-700" : "rounded-md px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-100"}
        onClick={() => {
          setOpened(true);
          dialog.current?.showModal();
        }}
      >
        {label}
      </button>
      <DialogShell ref={dialog} id="send-template" title="Send a template" description="An approved message template; the only kind that reaches a customer after 24 hours of silence." submitLabel="Send template" pending={pending} error={error} onSubmit={onSubmit}>
        <TemplateFields templates={templates.templates} status={templates.status} loadError={templates.message} errors={errors} onChange={setChoice} />
      </DialogShell>
    </>
  );
}
