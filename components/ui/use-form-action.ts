"use client";

import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/server/action";

/**
 * Submits a form to a server action: clears the previous errors and message, then hands the
 * result to `onSuccess` or shows the field errors and (when no field is to blame, or always with
 * `messageWithFieldErrors`) the message. `startTransition` is shared with the caller's other actions.
 */
export function useFormAction<T>(
  action: (data: FormData) => Promise<ActionResult<T>>,
  {
    onSuccess,
    onMessage,
    messageWithFieldErrors = false,
  }: { onSuccess: (data: T, form: HTMLFormElement) => void; onMessage: (message: string | undefined) => void; messageWithFieldErrors?: boolean },
) {
  const [pending, startTransition] = useTransition();
  const [errors, setErrors] = useState<Record<string, string>>({});

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    startTransition(async () => {
      setErrors({});
      onMessage(undefined);
      const result = await action(data);
      if (result.ok) {
        onSuccess(result.data, form);
      } else {
        setErrors(result.fieldErrors);
        if (messageWithFieldErrors || !Object.keys(result.fieldErrors).length) onMessage(result.message);
      }
    });
  }

  return { pending, startTransition, errors, onSubmit };
}
