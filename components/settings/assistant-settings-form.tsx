"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { saveAssistantConfigAction } from "@/app/(app)/settings/assistant/actions";
import { Alert, Card } from "@/components/ui/card";
import { CheckField } from "@/components/ui/check-field";
import type { AssistantConfigOutput } from "@/lib/assistant/schemas";
import { SettingSaveFooter, useSettingSave } from "./setting-save";

/** "Answer outside opening hours" and the retrieval threshold; off (and said so) without a model. */
export function AssistantSettingsForm({ config, canEdit }: { config: AssistantConfigOutput; canEdit: boolean }) {
  const [outsideHours, setOutsideHours] = useState(config.answer_outside_hours);
  const [minScore, setMinScore] = useState(String(config.min_score));
  const saving = useSettingSave("min_score");
  const { fieldError, pending } = saving;
  const editable = canEdit && config.available;
  const t = useTranslations("settingsAssistant");

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const score = Number(minScore.replace(",", "."));
    const invalid = minScore.trim() === "" || !Number.isFinite(score) || score < 0 || score > 1 ? t("scoreInvalid") : undefined;
    saving.save(
      invalid,
      () => saveAssistantConfigAction({ answer_outside_hours: outsideHours, min_score: score }),
      (data) => {
        setOutsideHours(data.answer_outside_hours);
        setMinScore(String(data.min_score));
      },
    );
  }

  return (
    <Card>
      <form onSubmit={onSubmit} className="flex flex-col gap-5" noValidate aria-busy={pending}>
        {!config.available ? (
          <Alert tone="info">
            {t.rich("noModel", { code: (chunks) => <code translate="no">{chunks}</code> })}
          </Alert>
        ) : null}
        {config.available && !canEdit ? <Alert tone="info">{t("adminOnly")}</Alert> : null}
        <CheckField name="answer_outside_hours" label={t("outsideHours")} hint={t("outsideHoursHint")} checked={outsideHours} disabled={!editable} onChange={setOutsideHours} />
        <div className="flex flex-col gap-1">
          <label htmlFor="assistant-min-score" className="text-sm font-medium text-slate-700">
            {t("minScore")}
          </label>
          <input
            id="assistant-min-score"
            name="min_score"
            inputMode="decimal"
            value={minScore}
            disabled={!editable}
            onChange={(event) => setMinScore(event.target.value)}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby="assistant-min-score-hint"
            className={`w-32 rounded-md border bg-white px-3 py-2 text-sm shadow-sm ${fieldError ? "border-red-400" : "border-slate-300"}`}
          />
          <p id="assistant-min-score-hint" className={`text-xs ${fieldError ? "text-red-600" : "text-slate-500"}`}>
            {fieldError ?? t("minScoreHint")}
          </p>
        </div>
        <SettingSaveFooter state={saving} savedText={outsideHours ? t("savedOn") : t("savedOff")} canSave={editable} saveLabel={t("save")} savingLabel={t("saving")} />
      </form>
    </Card>
  );
}
