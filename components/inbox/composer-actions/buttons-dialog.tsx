"use client";

import { useTranslations } from "next-intl";
import { Field } from "@/components/ui/field";
import type { ConversationItem, MessageItem } from "../types";
import { DialogShell, useSendDialog } from "./dialog-shell";

const slug = (title: string, index: number) => `${title.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "").slice(0, 40) || "option"}_${index + 1}`;

/** "Reply buttons": a question with up to 3 answers the customer taps. */
export function ButtonsDialog({ conversation, onQueued }: { conversation: ConversationItem; onQueued: (message: MessageItem) => void }) {
  const t = useTranslations("inbox.kinds");
  const d = useTranslations("inboxDialogs.buttons");
  const { dialog, errors, send, shell } = useSendDialog();
  const answerLabel = (i: number) => (i > 0 ? d("answerOptional", { number: i + 1 }) : d("answer", { number: i + 1 }));

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const body = String(form.get("body") ?? "").trim();
    const titles = [0, 1, 2].map((i) => String(form.get(`button${i}`) ?? "").trim()).filter(Boolean);
    const local: Record<string, string> = {};
    if (!body) local["interactive.body"] = d("questionError");
    if (titles.length === 0) local["interactive.buttons"] = d("answersError");
    const message = await send(local, () => ({
      conversation_id: conversation.id,
      type: "interactive",
      interactive: { type: "button", body, buttons: titles.map((title, index) => ({ id: slug(title, index), title })) },
    }));
    if (!message) return;
    onQueued(message);
    formElement.reset();
    dialog.current?.close();
  }

  return (
    <>
      <button type="button" className="rounded-md px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-100" onClick={() => dialog.current?.showModal()}>
        {t("buttons")}
      </button>
      <DialogShell id="send-buttons" title={d("title")} description={d("description")} submitLabel={d("submit")} {...shell} onSubmit={onSubmit}>
        <div className="flex flex-col gap-1">
          <label htmlFor="buttons-body" className="text-sm font-medium text-slate-700">
            {d("question")}
          </label>
          <textarea id="buttons-body" name="body" rows={2} maxLength={1024} className="rounded-md border border-slate-300 px-3 py-2 text-sm" />
          {errors["interactive.body"] ? <p className="text-xs text-red-600">{errors["interactive.body"]}</p> : null}
        </div>
        {[0, 1, 2].map((i) => (
          <Field key={i} id={`buttons-answer-${i}`} label={answerLabel(i)} name={`button${i}`} maxLength={20} error={errors[`interactive.buttons.${i}.title`]} />
        ))}
        {errors["interactive.buttons"] ? <p className="text-xs text-red-600">{errors["interactive.buttons"]}</p> : null}
      </DialogShell>
    </>
  );
}
