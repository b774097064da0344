"use client";

import { useState, useTransition } from "react";
import { saveCsatConfigAction } from "@/app/(app)/settings/survey/actions";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { CSAT_QUESTION_MAX, type CsatConfigOutput, csatChoices } from "@/lib/csat/schemas";

/** The survey's switch and question, with a preview of the list the customer receives. */
export function CsatSettingsForm({ config, canEdit }: { config: CsatConfigOutput; canEdit: boolean }) {
  const [enabled, setEnabled] = useState(config.enabled);
  const [question, setQuestion] = useState(config.question);
  const [error, setError] = useState<string>();
  const [fieldError, setFieldError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const [pending, startTransition] = useTransition();

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(undefined);
    setFieldError(undefined);
    setSaved(false);
    if (question.trim() === "") return setFieldError("Write the question the customer sees.");
    startTransition(async () => {
      const result = await saveCsatConfigAction({ enabled, question });
      if (!result.ok) {
        setError(result.message);
        setFieldError(result.fieldErrors.question);
        return;
      }
      setEnabled(result.data.enabled);
      setQuestion(result.data.question);
      setSaved(true);
    });
  }

  return (
    <Card>
      <form onSubmit={onSubmit} className="flex flex-col gap-5" noValidate aria-busy={pending}>
        {!canEdit ? <Alert tone="info">Only administrators can change the survey.</Alert> : null}
        <label className="flex items-start gap-3">
          <input
            type="checkbox"
            name="enabled"
            checked={enabled}
            disabled={!canEdit}
            onChange={(event) => setEnabled(event.target.checked)}
            className="mt-1 h-4 w-4 rounded border-slate-300 accent-brand-600"
          />
          <span>
            <span className="block text-sm font-medium text-slate-800">Ask for a rating when a conversation is closed</span>
            <span className="block text-xs text-slate-500">
              Sent once per close, never again once the customer has answered. Their choice, or a reply of a single digit 1–5 within 24 hours, is kept; anything else stays an ordinary message.
            </span>
          </span>
        </label>
        <div className="flex flex-col gap-1">
          <label htmlFor="csat-question" className="text-sm font-medium text-slate-700">
            Question
          </label>
          <textarea
            id="csat-question"
            name="question"
            rows={3}
            maxLength={CSAT_QUESTION_MAX}
            value={question}
            disabled={!canEdit}
            onChange={(event) => setQuestion(event.target.value)}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby="csat-question-hint"
            className={`rounded-md border bg-white px-3 py-2 text-sm shadow-sm ${fieldError ? "border-red-400" : "border-slate-300"}`}
          />
          <p id="csat-question-hint" className={`text-xs ${fieldError ? "text-red-600" : "text-slate-500"}`}>
            {fieldError ?? `${Array.from(question).length} / ${CSAT_QUESTION_MAX} characters`}
          </p>
        </div>
        <figure className="rounded-lg border border-slate-200 bg-slate-50 p-4">
          <figcaption className="text-xs font-medium uppercase tracking-wide text-slate-500">What the customer receives</figcaption>
          <p className="mt-2 max-w-sm whitespace-pre-wrap rounded-lg bg-white px-3 py-2 text-sm shadow-sm">{question.trim() || "…"}</p>
          <ul className="mt-2 flex max-w-sm flex-col divide-y divide-slate-100 rounded-lg bg-white text-sm shadow-sm">
            {csatChoices.map((choice) => (
              <li key={choice.score} className="px-3 py-1.5 text-slate-700">
                {choice.title}
              </li>
            ))}
          </ul>
        </figure>
        {error && !fieldError ? <Alert>{error}</Alert> : null}
        {saved ? <Alert tone="success">Saved. {enabled ? "Closed conversations now get the survey." : "The survey is off."}</Alert> : null}
        {canEdit ? (
          <div>
            <Button type="submit" disabled={pending}>
              {pending ? "Saving…" : "Save survey"}
            </Button>
          </div>
        ) : null}
      </form>
    </Card>
  );
}
