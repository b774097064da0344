"use client";

import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { requestJson } from "@/lib/client/api";

/** Sandbox only: lets an administrator play a customer writing to the number. */
export function SimulateCustomer({ onSent }: { onSent: (conversationId: string | undefined) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string>();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = {
      from: String(form.get("from") ?? "").replace(/\D/g, ""),
      name: String(form.get("name") ?? "").trim() || undefined,
      type: "text",
      text: String(form.get("text") ?? ""),
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
    (event.target as HTMLFormElement).querySelector<HTMLTextAreaElement>("textarea")!.value = "";
    dialog.current?.close();
    onSent(result.data.conversation_id ?? result.data.message?.conversation_id);
  }

  return (
    <>
      <Button type="button" variant="secondary" className="px-2.5 py-1.5 text-xs" onClick={() => dialog.current?.showModal()}>
        Simulate customer
      </Button>
      <dialog ref={dialog} aria-labelledby="simulate-title" className="m-auto w-full max-w-md rounded-xl p-0 shadow-xl backdrop:bg-slate-900/40">
        <form onSubmit={onSubmit} className="flex flex-col gap-4 p-6" noValidate>
          <div>
            <h2 id="simulate-title" className="text-lg font-semibold">
              Simulate a customer
            </h2>
            <p className="mt-1 text-sm text-slate-600">The sandbox number receives this as if a customer wrote it, so you can try the whole flow.</p>
          </div>
          {message && !Object.keys(errors).length ? <Alert>{message}</Alert> : null}
          <Field label="Customer number" name="from" inputMode="tel" required defaultValue="15551234567" hint="Digits with country code, 8 to 15." error={errors.from} />
          <Field label="Customer name" name="name" defaultValue="Maria Lopez" error={errors.name} />
          <div className="flex flex-col gap-1">
            <label htmlFor="simulate-text" className="text-sm font-medium text-slate-700">
              Message
            </label>
            <textarea id="simulate-text" name="text" required rows={3} className="rounded-md border border-slate-300 px-3 py-2 text-sm" defaultValue="" />
            {errors.text ? <p className="text-xs text-red-600">{errors.text}</p> : null}
          </div>
          <div className="flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending} aria-busy={pending}>
              {pending ? "Sending…" : "Send as customer"}
            </Button>
          </div>
        </form>
      </dialog>
    </>
  );
}
