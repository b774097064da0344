"use client";

import { useState, useTransition } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";

type SaveResult<T> = { ok: true; data: T } | { ok: false; status: number; code: string; message: string; fieldErrors: Record<string, string> };

/**
 * A settings card that saves through one server action and blames one field: what went wrong
 * (beside the field when the field is to blame), whether it saved, and whether it is saving.
 */
export function useSettingSave(field: string) {
  const [error, setError] = useState<string>();
  const [fieldError, setFieldError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const [pending, startTransition] = useTransition();
  const errorMessage = useApiErrorMessage();

  /** Checks first (`invalid` is the field's problem, in words), then saves and applies what was stored. */
  function save<T>(invalid: string | undefined, run: () => Promise<SaveResult<T>>, apply: (data: T) => void) {
    setError(undefined);
    setFieldError(undefined);
    setSaved(false);
    if (invalid) return setFieldError(invalid);
    startTransition(async () => {
      const result = await run();
      if (!result.ok) {
        setError(errorMessage(result));
        setFieldError(result.fieldErrors[field]);
        return;
      }
      apply(result.data);
      setSaved(true);
    });
  }

  return { error, fieldError, saved, pending, save };
}

/** The end of such a card: the error no field explains, the saved note, and Save for those who may. */
export function SettingSaveFooter({
  state,
  savedText,
  canSave,
  saveLabel,
  savingLabel,
}: {
  state: { error?: string; fieldError?: string; saved: boolean; pending: boolean };
  savedText: string;
  canSave: boolean;
  saveLabel: string;
  savingLabel: string;
}) {
  return (
    <>
      {state.error && !state.fieldError ? <Alert>{state.error}</Alert> : null}
      {state.saved ? <Alert tone="success">{savedText}</Alert> : null}
      {canSave ? (
        <div>
          <SaveButton busy={state.pending} label={saveLabel} busyLabel={savingLabel} className="" />
        </div>
      ) : null}
    </>
  );
}

/** A form's submit button: disabled and saying so while it is busy (or while `disabled`). */
export function SaveButton({
  busy,
  label,
  busyLabel,
  disabled,
  variant,
  className = "min-h-11 md:min-h-0",
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  disabled?: boolean;
  variant?: "secondary";
  className?: string;
}) {
  return (
    <Button type="submit" variant={variant} className={className || undefined} disabled={busy || disabled}>
      {busy ? busyLabel : label}
    </Button>
  );
}
