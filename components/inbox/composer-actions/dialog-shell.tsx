"use client";

import { forwardRef } from "react";
import { Button } from "@/components/ui/button";

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
            Cancel
          </Button>
          <Button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? "Sending…" : submitLabel}
          </Button>
        </div>
      </form>
    </dialog>
  );
});
