"use client";

import { useTranslations } from "next-intl";
import type { ConversationItem, MessageItem } from "../types";
import { DialogShell, useSendDialog } from "./dialog-shell";
import { TemplateFields, useTemplatePicker } from "./template-fields";

/** The template picker of a conversation: the one way to write after the 24-hour window. */
export function TemplateDialog({
  conversation,
  onQueued,
  label,
  prominent = false,
}: {
  conversation: ConversationItem;
  onQueued: (message: MessageItem) => void;
  label?: string;
  prominent?: boolean;
}) {
  const t = useTranslations("inbox.kinds");
  const d = useTranslations("inboxDialogs.template");
  const { dialog, errors, send, shell } = useSendDialog();
  const { templates, choice, setChoice, load } = useTemplatePicker();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (!choice) local["template.name"] = d("chooseError");
    else if (choice.variables.some((v) => !v.trim())) local["template.variables"] = d("valuesError");
    const message = await send(local, () => ({ conversation_id: conversation.id, type: "template", template: choice }));
    if (!message) return;
    onQueued(message);
    dialog.current?.close();
  }

  return (
    <>
      <button
        type="button"
        className={prominent ? "rounded-md bg-brand-600 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-700" : "rounded-md px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-100"}
        onClick={() => {
          load();
          dialog.current?.showModal();
        }}
      >
        {label ?? t("template")}
      </button>
      <DialogShell id="send-template" title={d("title")} description={d("description")} submitLabel={d("submit")} {...shell} onSubmit={onSubmit}>
        <TemplateFields templates={templates.templates} status={templates.status} loadError={templates.message} errors={errors} onChange={setChoice} to={conversation.contact.phone ?? undefined} />
      </DialogShell>
    </>
  );
}
