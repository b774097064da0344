"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { useHydrated } from "@/components/ui/hooks";
import { DialogShell, useSendDialog } from "./dialog-shell";
import { TemplateFields, useTemplatePicker } from "./template-fields";

const E164 = /^\+[1-9]\d{7,14}$/;

/** "New conversation": reach a customer first, by number, with an approved template. */
export function NewConversation({ onStarted }: { onStarted: (conversationId: string) => void }) {
  const t = useTranslations("inbox.newConversation");
  const { dialog, errors, send, shell } = useSendDialog();
  const { templates, choice, setChoice, load } = useTemplatePicker();
  const hydrated = useHydrated();

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
    <>
      <Button
        type="button"
        variant="secondary"
        className="px-2.5 py-1.5 text-xs max-md:min-h-11 max-md:min-w-11"
        aria-label={t("title")}
        title={t("title")}
        disabled={!hydrated}
        onClick={() => {
          load();
          dialog.current?.showModal();
        }}
      >
        {/* The list's header is narrow on every screen: one short word keeps it on one line. */}
        {t("button")}
      </Button>
      <DialogShell id="new-conversation" title={t("title")} description={t("description")} submitLabel={t("submit")} {...shell} onSubmit={onSubmit}>
        <Field id="new-conversation-to" label={t("number")} name="to" inputMode="tel" placeholder="+14155552671" hint={t("numberHint")} error={errors.to} />
        <TemplateFields templates={templates.templates} status={templates.status} loadError={templates.message} errors={errors} onChange={setChoice} />
      </DialogShell>
    </>
  );
}
