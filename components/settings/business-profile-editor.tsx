"use client";

import { useLocale, useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { saveBusinessProfileAction } from "@/app/(app)/settings/profile/actions";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { useBrowserTimeZone, useNow } from "@/components/ui/hooks";
import { hoursSchema, nextOpeningSentence, type Weekday, weekdays } from "@/lib/profile/hours";
import { type Language, languages } from "@/lib/platform/language/language";
import type { BusinessProfileOutput } from "@/lib/profile/schemas";
import { isDefaultOutsideHoursMessage, outsideHoursDefaults } from "@/lib/auto-replies/texts";
import { DayEditor, fromInput, hoursErrors, HoursPreview, type Interval, TimeZonePicker, type Week, weekFrom } from "@/components/settings/opening-hours-editor";


const DESCRIPTION_MAX = 5000;
const MESSAGE_MAX = 1000;
type Translations = Partial<Record<Language, string>>;

/** The outside-hours settings, with `translations` only when there is one. */
function withTranslations<T extends object>(settings: T, translations: Translations): T & { translations?: Translations } {
  return Object.keys(translations).length ? { ...settings, translations } : settings;
}

/** Only the translations that say something are sent; the business language's own is the message itself. */
function filledTranslations(translations: Translations, businessLanguage: Language): Translations {
  return Object.fromEntries(
    languages.filter((language) => language !== businessLanguage && translations[language]?.trim()).map((language) => [language, translations[language]!.trim()]),
  );
}

// A time input cannot show 24:00: closing at "00:00" means midnight, the end of the day.
export function BusinessProfileEditor({ profile, timeZones, canEdit }: { profile: BusinessProfileOutput; timeZones: string[]; canEdit: boolean }) {
  const [saved, setSaved] = useState(profile);
  const [name, setName] = useState(profile.name);
  const [description, setDescription] = useState(profile.description);
  const [hoursOn, setHoursOn] = useState(profile.hours !== null);
  const [timezone, setTimezone] = useState(profile.hours?.timezone ?? "");
  const [week, setWeek] = useState<Week>(() => weekFrom(profile.hours));
  const [outsideEnabled, setOutsideEnabled] = useState(profile.auto_reply.outside_hours.enabled);
  const [outsideMessage, setOutsideMessage] = useState(profile.auto_reply.outside_hours.message || outsideHoursDefaults[profile.language]);
  const [language, setLanguage] = useState<Language>(profile.language);
  const [translations, setTranslations] = useState<Translations>(profile.auto_reply.outside_hours.translations ?? {});
  const [questionEnabled, setQuestionEnabled] = useState(profile.auto_reply.hours_question.enabled);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<{ tone: "error" | "success"; text: string }>();
  const [pending, startTransition] = useTransition();
  const browserZone = useBrowserTimeZone();
  const now = useNow(30_000);
  const t = useTranslations("settingsProfile");
  const locale = useLocale();
  const errorMessage = useApiErrorMessage();
  const languageNames: Record<Language, string> = { en: t("languageName.en"), es: t("languageName.es"), pt: t("languageName.pt") };
  const number = (value: number) => value.toLocaleString(locale);

  // The product's own outside-hours message follows the business language until someone edits it.
  function chooseLanguage(next: Language) {
    setLanguage(next);
    if (isDefaultOutsideHoursMessage(outsideMessage)) setOutsideMessage(outsideHoursDefaults[next]);
  }

  const effectiveZone = timezone || browserZone || "UTC";
  const hoursValue = hoursOn ? { timezone: effectiveZone, weekly: Object.fromEntries(weekdays.map((day) => [day, week[day].map(fromInput)])) } : null;
  const input = {
    name,
    description,
    language,
    hours: hoursValue,
    auto_reply: {
      outside_hours: withTranslations({ enabled: hoursOn && outsideEnabled, message: outsideMessage }, filledTranslations(translations, language)),
      hours_question: { enabled: hoursOn && questionEnabled },
    },
  };
  const clientHoursErrors = hoursOn ? hoursErrors(hoursValue) : {};
  const parsedHours = hoursOn && !Object.keys(clientHoursErrors).length ? hoursSchema.parse(hoursValue) : null;
  const errors = { ...serverErrors, ...clientHoursErrors };
  const dirty =
    JSON.stringify(input) !==
    JSON.stringify({
      name: saved.name,
      description: saved.description,
      language: saved.language,
      hours: saved.hours,
      auto_reply: {
        outside_hours: withTranslations(
          { enabled: saved.auto_reply.outside_hours.enabled, message: saved.auto_reply.outside_hours.message || outsideHoursDefaults[saved.language] },
          filledTranslations(saved.auto_reply.outside_hours.translations ?? {}, saved.language),
        ),
        hours_question: saved.auto_reply.hours_question,
      },
    });

  function setDay(day: Weekday, intervals: Interval[]) {
    setWeek((current) => ({ ...current, [day]: intervals }));
  }

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (Object.keys(clientHoursErrors).length) {
      setNotice({ tone: "error", text: t("hours.fixFirst") });
      return;
    }
    startTransition(async () => {
      setNotice(undefined);
      const result = await saveBusinessProfileAction(input);
      if (result.ok) {
        setSaved(result.data);
        setServerErrors({});
        if (result.data.hours) setTimezone(result.data.hours.timezone);
        setNotice({ tone: "success", text: t("saved") });
      } else {
        setServerErrors(result.fieldErrors);
        setNotice({ tone: "error", text: errorMessage(result) });
      }
    });
  }

  // The answer a customer writing in the business's language would get now: one language throughout.
  const outsidePreview =
    parsedHours && now
      ? [outsideMessage.trim().replaceAll("{{business.name}}", name), nextOpeningSentence({ hours: parsedHours, at: now, language })].filter(Boolean).join("\n")
      : null;

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t("form")} className="flex flex-col gap-6">
      {!canEdit ? <Alert tone="info">{t("adminOnly")}</Alert> : null}
      <fieldset disabled={!canEdit || pending} className="flex min-w-0 flex-col gap-6">
        <Card>
          <h2 className="text-base font-semibold">{t("about")}</h2>
          <div className="mt-4 flex flex-col gap-4">
            <Field label={t("name")} name="name" value={name} onChange={(event) => setName(event.target.value)} maxLength={100} required error={errors.name} />
            <div className="flex flex-col gap-1">
              <label htmlFor="field-language" className="text-sm font-medium text-slate-700">
                {t("language")}
              </label>
              <select
                id="field-language"
                value={language}
                onChange={(event) => chooseLanguage(event.target.value as Language)}
                aria-describedby="field-language-hint"
                className="w-full max-w-xs rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm"
              >
                {languages.map((code) => (
                  <option key={code} value={code}>
                    {languageNames[code]}
                  </option>
                ))}
              </select>
              <p id="field-language-hint" className={`text-xs ${errors.language ? "text-red-600" : "text-slate-500"}`}>
                {errors.language ?? t("languageHint")}
              </p>
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor="field-description" className="text-sm font-medium text-slate-700">
                {t("descriptionLabel")}
              </label>
              <textarea
                id="field-description"
                value={description}
                onChange={(event) => setDescription(event.target.value)}
                rows={5}
                maxLength={DESCRIPTION_MAX}
                aria-describedby="field-description-hint"
                aria-invalid={errors.description ? true : undefined}
                placeholder={t("descriptionPlaceholder")}
                className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm"
              />
              <p id="field-description-hint" className={`text-xs ${errors.description ? "text-red-600" : "text-slate-500"}`}>
                {errors.description ?? t("descriptionHint", { count: number(description.length), max: number(DESCRIPTION_MAX) })}
              </p>
            </div>
          </div>
        </Card>

        <Card>
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div>
              <h2 className="text-base font-semibold">{t("hours.title")}</h2>
              <p className="mt-1 text-sm text-slate-600">{t("hours.hint")}</p>
            </div>
            <label className="flex items-center gap-2 text-sm font-medium">
              <input
                type="checkbox"
                checked={hoursOn}
                onChange={(event) => {
                  setHoursOn(event.target.checked);
                  if (event.target.checked && !timezone && browserZone) setTimezone(browserZone);
                }}
                className="h-4 w-4 accent-brand-600"
              />
              {t("hours.publish")}
            </label>
          </div>
          {hoursOn ? (
            <div className="mt-4 grid gap-6 lg:grid-cols-[minmax(0,18rem)_minmax(0,1fr)]">
              <div className="flex flex-col gap-4">
                <TimeZonePicker id="timezone" value={effectiveZone} zones={timeZones} onChange={setTimezone} error={errors["hours.timezone"]} />
                <HoursPreview hours={parsedHours} hoursOn={hoursOn} errors={clientHoursErrors} />
              </div>
              <div className="min-w-0">
                {weekdays.map((day) => (
                  <DayEditor key={day} day={day} intervals={week[day]} errors={errors} onChange={(intervals) => setDay(day, intervals)} />
                ))}
                <div className="pt-3">
                  <Button
                    type="button"
                    variant="secondary"
                    onClick={() => setWeek((current) => ({ ...current, tue: [...current.mon], wed: [...current.mon], thu: [...current.mon], fri: [...current.mon] }))}
                  >
                    {t("hours.copyMonday")}
                  </Button>
                </div>
                {errors.hours ? <p className="mt-2 text-xs text-red-600">{errors.hours}</p> : null}
              </div>
            </div>
          ) : (
            <div className="mt-4">
              <HoursPreview hours={null} hoursOn={false} errors={{}} />
            </div>
          )}
        </Card>

        <Card>
          <h2 className="text-base font-semibold">{t("auto.title")}</h2>
          <p className="mt-1 text-sm text-slate-600">{t("auto.hint")}</p>
          {!hoursOn ? <p className="mt-3 text-sm text-amber-700">{t("auto.needsHours")}</p> : null}
          <div className="mt-4 flex flex-col gap-5">
            <div className="flex flex-col gap-2">
              <label className="flex items-center gap-2 text-sm font-medium">
                <input type="checkbox" checked={hoursOn && outsideEnabled} disabled={!hoursOn} onChange={(event) => setOutsideEnabled(event.target.checked)} className="h-4 w-4 accent-brand-600" />
                {t("auto.outside")}
              </label>
              <p className="text-xs text-slate-500">{t("auto.outsideHint")}</p>
              <label htmlFor="field-outside-message" className="text-sm font-medium text-slate-700">
                {t("auto.outsideMessage")}
              </label>
              <textarea
                id="field-outside-message"
                value={outsideMessage}
                onChange={(event) => setOutsideMessage(event.target.value)}
                rows={3}
                maxLength={MESSAGE_MAX}
                disabled={!hoursOn || !outsideEnabled}
                aria-invalid={errors["auto_reply.outside_hours.message"] ? true : undefined}
                aria-describedby="field-outside-message-hint"
                className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm disabled:bg-slate-50 disabled:text-slate-500"
              />
              <p id="field-outside-message-hint" className={`text-xs ${errors["auto_reply.outside_hours.message"] ? "text-red-600" : "text-slate-500"}`}>
                {errors["auto_reply.outside_hours.message"] ?? errors["auto_reply.outside_hours.enabled"] ?? t("auto.characters", { count: number(outsideMessage.length), max: number(MESSAGE_MAX) })}
              </p>
              <details className="rounded-md border border-slate-200 bg-white px-3 py-2" open={Object.keys(filledTranslations(translations, language)).length > 0}>
                <summary className="cursor-pointer text-sm font-medium text-slate-700">{t("auto.translations")}</summary>
                <p className="mt-1 text-xs text-slate-500">
                  {t(isDefaultOutsideHoursMessage(outsideMessage) ? "auto.translationsDefaultHint" : "auto.translationsHint", { language: languageNames[language] })}{" "}
                  {t("auto.placeholderHint", { placeholder: "{{business.name}}" })}
                </p>
                <div className="mt-2 flex flex-col gap-3">
                  {languages
                    .filter((code) => code !== language)
                    .map((code) => {
                      const field = `auto_reply.outside_hours.translations.${code}`;
                      const value = translations[code] ?? "";
                      return (
                        <div key={code} className="flex flex-col gap-1">
                          <label htmlFor={`field-translation-${code}`} className="text-sm text-slate-700">
                            {languageNames[code]}
                          </label>
                          <textarea
                            id={`field-translation-${code}`}
                            value={value}
                            onChange={(event) => setTranslations((current) => ({ ...current, [code]: event.target.value }))}
                            rows={2}
                            maxLength={MESSAGE_MAX}
                            disabled={!hoursOn || !outsideEnabled}
                            aria-invalid={errors[field] ? true : undefined}
                            aria-describedby={`field-translation-${code}-hint`}
                            className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm disabled:bg-slate-50 disabled:text-slate-500"
                          />
                          <p id={`field-translation-${code}-hint`} className={`text-xs ${errors[field] ? "text-red-600" : "text-slate-500"}`}>
                            {errors[field] ?? t("auto.optionalCharacters", { count: number(value.length), max: number(MESSAGE_MAX) })}
                          </p>
                        </div>
                      );
                    })}
                </div>
              </details>
              {hoursOn && outsideEnabled && outsidePreview ? (
                <div className="max-w-md rounded-lg rounded-tl-none bg-brand-50 px-3 py-2 text-sm whitespace-pre-line text-slate-800" aria-label={t("auto.preview")}
                  data-user-content>
                  {outsidePreview}
                </div>
              ) : null}
            </div>
            <div className="flex flex-col gap-1">
              <label className="flex items-center gap-2 text-sm font-medium">
                <input type="checkbox" checked={hoursOn && questionEnabled} disabled={!hoursOn} onChange={(event) => setQuestionEnabled(event.target.checked)} className="h-4 w-4 accent-brand-600" />
                {t("auto.question")}
              </label>
              <p className="text-xs text-slate-500">
                {t("auto.questionHint")}
                {errors["auto_reply.hours_question.enabled"] ? <span className="block text-red-600">{errors["auto_reply.hours_question.enabled"]}</span> : null}
              </p>
            </div>
          </div>
        </Card>
      </fieldset>

      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      {canEdit ? (
        <div className="sticky bottom-0 -mx-1 flex flex-wrap items-center gap-3 border-t border-slate-200 bg-slate-50/95 px-1 py-3 backdrop-blur">
          <Button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? t("saving") : t("save")}
          </Button>
          {dirty && !pending ? <span className="text-sm text-slate-500">{t("unsaved")}</span> : null}
        </div>
      ) : null}
    </form>
  );
}
