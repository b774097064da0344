"use client";

import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { DialogShell } from "./dialog-shell";
import { sendKind } from "./send-kind";
import { type TemplateChoice, TemplateFields, useApprovedTemplates } from "./template-fields";

const E164 = /^\+[1-9]\d{7,14}$/;

/** "New conversation": reach a customer first, by number, with an approved template. */
export function NewConversation({ onStarted }: { onStarted: (conversationId: string) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [opened, setOpened] = useState(false);
  const [choice, setChoice] = useState<TemplateChoice | null>(null);
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const templates = useApprovedTemplates(opened);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const number = String(new FormData(event.currentTarget).get("to") ?? "").replace(/[\s()-]/g, "");
    const local: Record<string, string> = {};
    if (!E164.test(number)) local.to = "Enter the number in E.164: + then the country code and number (e.g. +14155552671).";
    if (!choice) local["template.name"] = "Choose a template.";
    else if (choice.variables.some((v) => !v.trim())) local["template.variables"] = "Fill in every value.";
    setErrors(local);
    setError(undefined);
    if (Object.keys(local).length || !choice) return;
    setPending(true);
    const result = await sendKind({ to: number.slice(1), type: "template", template: choice });
    setPending(false);
    if (!result.ok) {
      setErrors(result.fieldErrors);
      setError(result.message);
      return;
    }
    dialog.current?.close();
    onStarted(result.data.conversation_id);
  }

  return (
    <>
      <Button
        type="button"
        variant="secondary"
        className="px-2.5 py-1.5 text-xs"
        aria-label="New conversation"
        title="New conversation"
        onClick={() => {
          setOpened(true);
          dialog.current?.showModal();
        }}
      >
        {/* The list's header is narrow on every screen: one short word keeps it on one line. */}
        New
      </Button>
      <DialogShell ref={dialog} id="new-conversation" title="New conversation" description="Write first to a customer with an approved template; free-form replies open once they answer." submitLabel="Send template" pending={pending} error={error} onSubmit={onSubmit}>
        <Field id="new-conversation-to" label="Number to write to" name="to" inputMode="tel" placeholder="+14155552671" hint="E.164: + then the country code and number." error={errors.to} />
        <TemplateFields templates={templates.templates} status={templates.status} loadError={templates.message} errors={errors} onChange={setChoice} />
      </DialogShell>
    </>
  );
}
