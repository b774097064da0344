"use client";

import { useTranslations } from "next-intl";
import { useCallback, useEffect, useRef, useState } from "react";
import { Button } from "./button";

export type ConfirmOptions = {
  title: string;
  body?: React.ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  tone?: "danger" | "primary";
};

type Pending = ConfirmOptions & { resolve: (answer: boolean) => void };

/**
 * The app's confirmation, in place of window.confirm: `const [confirm, dialog] = useConfirm();`
 * render `dialog` once, then `if (await confirm({ title: "Delete…?" })) …`. Escape and Cancel say no;
 * focus starts on Cancel so Enter never destroys anything by accident.
 */
export function useConfirm(): [(options: ConfirmOptions) => Promise<boolean>, React.ReactNode] {
  const [pending, setPending] = useState<Pending | null>(null);
  const confirm = useCallback(
    (options: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        setPending({ ...options, resolve });
      }),
    [],
  );
  const close = (answer: boolean) => {
    pending?.resolve(answer);
    setPending(null);
  };
  return [confirm, pending ? <ConfirmDialog key="confirm" options={pending} onAnswer={close} /> : null];
}

function ConfirmDialog({ options, onAnswer }: { options: ConfirmOptions; onAnswer: (answer: boolean) => void }) {
  const t = useTranslations("forms");
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const node = dialog.current;
    if (node && !node.open) node.showModal();
    node?.querySelector<HTMLButtonElement>("[data-confirm-cancel]")?.focus();
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-labelledby="confirm-title"
      aria-describedby={options.body ? "confirm-body" : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onAnswer(false);
      }}
      className="m-auto w-[calc(100vw-2rem)] max-w-md rounded-xl p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="flex flex-col gap-4 p-6">
        <h2 id="confirm-title" className="text-lg font-semibold text-slate-900">
          {options.title}
        </h2>
        {options.body ? (
          <div id="confirm-body" className="text-sm text-slate-600">
            {options.body}
          </div>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button data-confirm-cancel type="button" variant="secondary" onClick={() => onAnswer(false)}>
            {options.cancelLabel ?? t("cancel")}
          </Button>
          <Button type="button" variant={options.tone === "primary" ? "primary" : "danger"} onClick={() => onAnswer(true)}>
            {options.confirmLabel ?? t("confirm")}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
