"use client";

import { useTranslations } from "next-intl";
import { forwardRef, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import type { MessageItem } from "../types";
import { sendKind } from "./send-kind";

/**
 * The state of a sending dialog: `send` shows the problems found before sending, or sends the
 * message and shows the API's answer; it gives the queued message back when it went out.
 */
export function useSendDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const apiError = useApiErrorMessage();

  async function send(local: Record<string, string>, body: () => Record<string, unknown>): Promise<MessageItem | null> {
    setErrors(local);
    setError(undefined);
    if (Object.keys(local).length) return null;
    setPending(true);
    const result = await sendKind(body());
    setPending(false);
    if (!result.ok) {
      setErrors(result.fieldErrors);
      setError(apiError(result));
      return null;
    }
    return result.data;
  }

  return { dialog, errors, send, shell: { ref: dialog, pending, error } };
}

/** A modal form in the inbox's style: title, explanation, fields, Cancel and a submit button with progress. */
export const DialogShell = forwardRef<
  HTMLDialogElement,
  {
    id: string;
    title: string;
    description?: string;
    submitLabel: string;
    pending: boolean;
    error?: string;
    onSubmit: (event: React.FormEvent<HTMLFormElement>) => void;
    children: React.ReactNode;
  }
>(function DialogShell({ id, title, description, submitLabel, pending, error, onSubmit, children }, ref) {
  const t = useTranslations("inboxDialogs.shell");
  return (
    <dialog ref={ref} aria-labelledby={`${id}-title`} className="m-auto w-[calc(100%-1.5rem)] max-w-md rounded-xl p-0 shadow-xl backdrop:bg-slate-900/40">
      <form onSubmit={onSubmit} className="flex flex-col gap-4 p-5" noValidate>
        <div>
          <h2 id={`${id}-title`} className="text-lg font-semibold">
            {title}
          </h2>
          {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
        </div>
        {error ? (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {error}
          </p>
        ) : null}
        {children}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={() => (ref as React.RefObject<HTMLDialogElement | null>)?.current?.close()}>
            {t("cancel")}
          </Button>
          <Button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? t("sending") : submitLabel}
          </Button>
        </div>
      </form>
    </dialog>
  );
});
