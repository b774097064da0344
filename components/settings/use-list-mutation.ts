"use client";

import { useState } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import type { Note } from "@/components/ui/status-note";
import { requestJson } from "@/lib/client/api";

/**
 * The state a settings list keeps while it is changed through the API, and the three ways it is
 * changed: a form that creates or edits a row (its field errors go beside the fields), a change to
 * one row, and removing one row. `busy` names what is in flight: a form's key or a row's id.
 * Every request clears the last status note first; a failure puts the API's error in it.
 */
export function useListMutation<T extends { id: string }>(initial: T[]) {
  const [items, setItems] = useState(initial);
  const [busy, setBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<Note>();
  const errorMessage = useApiErrorMessage();

  /**
   * Sends a form; resolves to the saved row, or null when it was refused. A 409 is the name being
   * taken, shown as `duplicate` beside the name field when the form words it.
   */
  async function submit<R = T>(key: string, method: "POST" | "PATCH", path: string, body: unknown, duplicate?: string): Promise<R | null> {
    setBusy(key);
    setErrors({});
    setMessage(undefined);
    const result = await requestJson<R>(method, path, body);
    setBusy(null);
    if (result.ok) return result.data;
    if (duplicate && result.status === 409) setErrors({ name: duplicate });
    else {
      setErrors(result.fieldErrors);
      setMessage({ tone: "error", text: errorMessage(result) });
    }
    return null;
  }

  /** Changes one row; resolves to the API's answer, or null when it was refused. */
  async function change<R = T>(id: string, method: "POST" | "PATCH", path: string, body?: unknown): Promise<R | null> {
    setBusy(id);
    setMessage(undefined);
    const result = await requestJson<R>(method, path, body);
    setBusy(null);
    if (result.ok) return result.data;
    setMessage({ tone: "error", text: errorMessage(result) });
    return null;
  }

  /** Deletes one row and drops it from the list; a row already gone (404) counts as removed. */
  async function remove(item: T, path: string): Promise<boolean> {
    setBusy(item.id);
    setMessage(undefined);
    const result = await requestJson("DELETE", path);
    setBusy(null);
    if (result.ok || result.status === 404) {
      setItems((list) => list.filter((other) => other.id !== item.id));
      return true;
    }
    setMessage({ tone: "error", text: errorMessage(result) });
    return false;
  }

  return { items, setItems, busy, errors, setErrors, message, setMessage, submit, change, remove };
}
