import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { CenteredCard } from "@/components/brand";

export async function generateMetadata() {
  return { title: (await getTranslations("errorPages.notFound"))("title") };
}

export default async function NotFound() {
  const t = await getTranslations("errorPages.notFound");
  return (
    <CenteredCard className="text-center">
      <p className="text-sm font-semibold text-brand-700">404</p>
      <h1 className="mt-1 text-xl font-semibold">{t("heading")}</h1>
      <p className="mt-2 text-sm text-slate-600">{t("body")}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        <Link href="/inbox" className="inline-flex items-center rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white hover:bg-brand-700">
          {t("inbox")}
        </Link>
        <Link href="/docs" className="inline-flex items-center rounded-md border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50">
          {t("docs")}
        </Link>
      </div>
    </CenteredCard>
  );
}
