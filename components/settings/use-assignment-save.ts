"use client";

import { useState } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import type { Note } from "@/components/ui/status-note";
import { type ApiResult, requestJson } from "@/lib/client/api";
import type { AssignmentConfigOutput } from "@/lib/teams/assignment-schemas";

export type AssignmentConfig = AssignmentConfigOutput;

type Failure = Extract<ApiResult<AssignmentConfig>, { ok: false }>;

/** The account's assignment policy as it is now (another form may have changed it since the page loaded). */
export const currentAssignment = () => requestJson<AssignmentConfig>("GET", "/v1/config/assignment");

/**
 * Saves an assignment policy through `PUT /v1/config/assignment`. `body` builds what is sent (it
 * may first read the policy as it is now) or hands back the failed read, which is then shown
 * instead; the outcome is the status note.
 */
export function useAssignmentSave() {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Note>();
  const errorMessage = useApiErrorMessage();

  async function save(savedText: string, body: () => Promise<object | Failure>) {
    setBusy(true);
    setMessage(undefined);
    const built = await body();
    const result = "ok" in built && built.ok === false ? built : await requestJson<AssignmentConfig>("PUT", "/v1/config/assignment", built);
    setBusy(false);
    setMessage(result.ok ? { tone: "ok", text: savedText } : { tone: "error", text: errorMessage(result) });
  }

  return { busy, message, save };
}
