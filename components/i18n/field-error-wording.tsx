"use client";

import { useLocale, useTranslations } from "next-intl";
import { useEffect } from "react";
import { FIELD_ERRORS_NAMESPACE, type FieldErrorTranslator, setBrowserFieldErrorTranslator, wordsFieldErrors } from "@/lib/client/field-errors";

/**
 * Gives the browser's API calls (`requestJson`) the page's words for field errors, so a form
 * shows "El nombre admite como máximo 40 caracteres." in Spanish without wording it itself.
 * Rendered once, in the root layout.
 */
export function FieldErrorWording() {
  const locale = useLocale();
  const t = useTranslations(FIELD_ERRORS_NAMESPACE);
  useEffect(() => {
    setBrowserFieldErrorTranslator(wordsFieldErrors(locale) ? (t as unknown as FieldErrorTranslator) : null);
  }, [locale, t]);
  return null;
}
