"use client";

import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { Field } from "@/components/ui/field";
import { DialogShell, useSendDialog } from "./dialog-shell";
import { TemplateFields, useTemplatePicker } from "./template-fields";

const E164 = /^\+[1-9]\d{7,14}$/;

/**
 * The "New conversation" form: reach a customer first, by number, with an approved template.
 * Shown (and the templates loaded) each time `opened` counts one more request for it.
 */
export function NewConversationDialog({ opened, onStarted }: { opened: number; onStarted: (conversationId: string) => void }) {
  const t = useTranslations("inbox.newConversation");
  const { dialog, errors, send, shell } = useSendDialog();
  const { templates, choice, setChoice, load } = useTemplatePicker();

  useEffect(() => {
    load();
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
    // Once per request to open; `load` and `dialog` are stable enough for that.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const number = String(new FormData(event.currentTarget).get("to") ?? "").replace(/[\s()-]/g, "");
    const local: Record<string, string> = {};
    if (!E164.test(number)) local.to = t("numberError");
    if (!choice) local["template.name"] = t("chooseTemplate");
    else if (choice.variables.some((v) => !v.trim())) local["template.variables"] = t("fillValues");
    const message = await send(local, () => ({ to: number.slice(1), type: "template", template: choice }));
    if (!message) return;
    dialog.current?.close();
    onStarted(message.conversation_id);
  }

  return (
    <DialogShell id="new-conversation" title={t("title")} description={t("description")} submitLabel={t("submit")} {...shell} onSubmit={onSubmit}>
      <Field id="new-conversation-to" label={t("number")} name="to" inputMode="tel" placeholder="+14155552671" hint={t("numberHint")} error={errors.to} />
      <TemplateFields templates={templates.templates} status={templates.status} loadError={templates.message} errors={errors} onChange={setChoice} />
    </DialogShell>
  );
}
