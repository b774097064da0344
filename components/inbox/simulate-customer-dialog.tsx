"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { requestJson } from "@/lib/client/api";
import { csatChoiceId, csatChoices } from "@/lib/csat/choices";

/**
 * Sandbox only: the form in which an administrator plays a customer writing to the number,
 * shown each time `opened` counts one more request for it.
 */
export function SimulateCustomerDialog({ opened, onSent }: { opened: number; onSent: (conversationId: string | undefined) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const t = useTranslations("inbox.simulate");
  const s = useTranslations("inboxTools.simulate");
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string>();
  // A customer can also answer the satisfaction survey's list, as the network reports a choice.
  const [kind, setKind] = useState<"text" | "survey">("text");

  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [opened]);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const choice = csatChoices.find((c) => String(c.score) === form.get("score")) ?? csatChoices[4];
    const from = String(form.get("from") ?? "").replace(/\D/g, "");
    const username = String(form.get("username") ?? "").trim();
    const body = {
      // A customer with a username may write without a number.
      ...(from || !username ? { from } : {}),
      ...(username ? { username } : {}),
      name: String(form.get("name") ?? "").trim() || undefined,
      ...(kind === "survey"
        ? { type: "interactive", interactive: { type: "list_reply", id: csatChoiceId(choice.score), title: choice.title } }
        : { type: "text", text: String(form.get("text") ?? "") }),
    };
    setPending(true);
    setErrors({});
    setMessage(undefined);
    const result = await requestJson<{ conversation_id?: string; message?: { conversation_id?: string } }>("POST", "/api/sandbox/inbound", body);
    setPending(false);
    if (!result.ok) {
      setErrors(result.fieldErrors);
      setMessage(result.message);
      return;
    }
    const textarea = (event.target as HTMLFormElement).querySelector<HTMLTextAreaElement>("textarea");
    if (textarea) textarea.value = "";
    dialog.current?.close();
    onSent(result.data.conversation_id ?? result.data.message?.conversation_id);
  }

  return (
    <dialog ref={dialog} aria-labelledby="simulate-title" className="m-auto w-full max-w-md rounded-xl p-0 shadow-xl backdrop:bg-slate-900/40">
      <form onSubmit={onSubmit} className="flex flex-col gap-4 p-6" noValidate>
        <div>
          <h2 id="simulate-title" className="text-lg font-semibold">
            {t("title")}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{t("description")}</p>
        </div>
        {message && !Object.keys(errors).length ? <Alert>{message}</Alert> : null}
        <Field label={t("number")} name="from" inputMode="tel" defaultValue="15551234567" hint={t("numberHint")} error={errors.from} />
        <Field label={t("username")} name="username" defaultValue="" hint={t("usernameHint")} error={errors.username} />
        <Field label={t("name")} name="name" defaultValue="Maria Lopez" error={errors.name} />
        <div className="flex flex-col gap-1">
          <label htmlFor="simulate-kind" className="text-sm font-medium text-slate-700">
            {t("sends")}
          </label>
          <select id="simulate-kind" value={kind} onChange={(event) => setKind(event.target.value as "text" | "survey")} className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
            <option value="text">{s("message")}</option>
            <option value="survey">{s("survey")}</option>
          </select>
        </div>
        {kind === "survey" ? (
          <div className="flex flex-col gap-1">
            <label htmlFor="simulate-score" className="text-sm font-medium text-slate-700">
              {t("surveyChoice")}
            </label>
            <select id="simulate-score" name="score" defaultValue="5" className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
              {csatChoices.map((choice) => (
                <option key={choice.score} value={choice.score}>
                  {choice.title}
                </option>
              ))}
            </select>
            {errors.interactive ? <p className="text-xs text-red-600">{errors.interactive}</p> : null}
          </div>
        ) : (
          <div className="flex flex-col gap-1">
            <label htmlFor="simulate-text" className="text-sm font-medium text-slate-700">
              {t("message")}
            </label>
            <textarea id="simulate-text" name="text" required rows={3} className="rounded-md border border-slate-300 px-3 py-2 text-sm" defaultValue="" />
            {errors.text ? <p className="text-xs text-red-600">{errors.text}</p> : null}
          </div>
        )}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={() => dialog.current?.close()}>
            {t("cancel")}
          </Button>
          <Button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? t("sending") : t("submit")}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
