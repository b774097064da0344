import { getTranslations } from "next-intl/server";

export default async function Loading() {
  const t = await getTranslations("webhooks.detail");
  return (
    <p role="status" aria-live="polite" className="flex items-center gap-2 text-sm text-slate-600">
      <span className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" aria-hidden />
      {t("loading")}
    </p>
  );
}
