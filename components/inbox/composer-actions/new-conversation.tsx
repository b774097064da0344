"use client";

import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { useHydrated } from "@/components/ui/hooks";
import { DialogShell, useSendDialog } from "./dialog-shell";
import { TemplateFields, useTemplatePicker } from "./template-fields";

const E164 = /^\+[1-9]\d{7,14}$/;

/** "New conversation": reach a customer first, by number, with an approved template. */
export function NewConversation({ onStarted }: { onStarted: (conversationId: string) => void }) {
  const { dialog, errors, send, shell } = useSendDialog();
  const { templates, choice, setChoice, load } = useTemplatePicker();
  const hydrated = useHydrated();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const number = String(new FormData(event.currentTarget).get("to") ?? "").replace(/[\s()-]/g, "");
    const local: Record<string, string> = {};
    if (!E164.test(number)) local.to = "Enter the number in E.164: + then the country code and number (e.g. +14155552671).";
    if (!choice) local["template.name"] = "Choose a template.";
    else if (choice.variables.some((v) => !v.trim())) local["template.variables"] = "Fill in every value.";
    const message = await send(local, () => ({ to: number.slice(1), type: "template", template: choice }));
    if (!message) return;
    dialog.current?.close();
    onStarted(message.conversation_id);
  }

  return (
    <>
      <Button
        type="button"
        variant="secondary"
        className="px-2.5 py-1.5 text-xs"
        aria-label="New conversation"
        title="New conversation"
        disabled={!hydrated}
        onClick={() => {
          load();
          dialog.current?.showModal();
        }}
      >
        {/* The list's header is narrow on every screen: one short word keeps it on one line. */}
        New
      </Button>
      <DialogShell id="new-conversation" title="New conversation" description="Write first to a customer with an approved template; free-form replies open once they answer." submitLabel="Send template" {...shell} onSubmit={onSubmit}>
        <Field id="new-conversation-to" label="Number to write to" name="to" inputMode="tel" placeholder="+14155552671" hint="E.164: + then the country code and number." error={errors.to} />
        <TemplateFields templates={templates.templates} status={templates.status} loadError={templates.message} errors={errors} onChange={setChoice} />
      </DialogShell>
    </>
  );
}
