"use client";

import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { saveCsatConfigAction } from "@/app/(app)/settings/survey/actions";
import { Alert, Card } from "@/components/ui/card";
import { CheckField } from "@/components/ui/check-field";
import { CSAT_QUESTION_MAX, type CsatConfigOutput, csatScores } from "@/lib/csat/schemas";
import { csatTexts, surveyQuestionIn } from "@/lib/csat/texts";
import { localeOfLanguage } from "@/lib/platform/i18n/locales";
import { languages } from "@/lib/platform/language/language";
import { SettingSaveFooter, useSettingSave } from "./setting-save";

/** The survey's switch and question, with a preview of the list the customer receives. */
export function CsatSettingsForm({ config, canEdit }: { config: CsatConfigOutput; canEdit: boolean }) {
  const [enabled, setEnabled] = useState(config.enabled);
  const [question, setQuestion] = useState(config.question);
  const saving = useSettingSave("question");
  const { fieldError, pending } = saving;
  const t = useTranslations("settingsSurvey");
  // The preview speaks the reader's language, as a customer of that language would be answered.
  const locale = useLocale();
  const language = languages.find((l) => localeOfLanguage(l) === locale) ?? "en";

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    saving.save(
      question.trim() === "" ? t("questionRequired") : undefined,
      () => saveCsatConfigAction({ enabled, question }),
      (data) => {
        setEnabled(data.enabled);
        setQuestion(data.question);
      },
    );
  }

  return (
    <Card>
      <form onSubmit={onSubmit} className="flex flex-col gap-5" noValidate aria-busy={pending}>
        {!canEdit ? <Alert tone="info">{t("adminOnly")}</Alert> : null}
        <CheckField name="enabled" label={t("enable")} hint={t("enableHint")} checked={enabled} disabled={!canEdit} onChange={setEnabled} />
        <div className="flex flex-col gap-1">
          <label htmlFor="csat-question" className="text-sm font-medium text-slate-700">
            {t("question")}
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
            {fieldError ?? t("characters", { count: Array.from(question).length, max: CSAT_QUESTION_MAX })}
          </p>
        </div>
        <figure className="rounded-lg border border-slate-200 bg-slate-50 p-4">
          <figcaption className="text-xs font-medium uppercase tracking-wide text-slate-500">{t("preview")}</figcaption>
          <p className="mt-1 text-xs text-slate-500">{t("previewLanguage")}</p>
          <p data-user-content className="mt-2 max-w-sm whitespace-pre-wrap rounded-lg bg-white px-3 py-2 text-sm shadow-sm">
            {surveyQuestionIn(question, language).trim() || "…"}
          </p>
          <ul data-user-content lang={locale} className="mt-2 flex max-w-sm flex-col divide-y divide-slate-100 rounded-lg bg-white text-sm shadow-sm">
            {csatScores.map((score) => (
              <li key={score} className="px-3 py-1.5 text-slate-700">
                {csatTexts[language].choices[score]}
              </li>
            ))}
          </ul>
        </figure>
        <SettingSaveFooter state={saving} savedText={enabled ? t("savedOn") : t("savedOff")} canSave={canEdit} saveLabel={t("save")} savingLabel={t("saving")} />
      </form>
    </Card>
  );
}
