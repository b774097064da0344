import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { CenteredCard } from "@/components/brand";

export async function generateMetadata() {
  return { title: (await getTranslations("badRequest"))("title") };
}

/** Shown with status 400 for an address that cannot be read (a broken `%`-escape). */
export default async function BadRequest() {
  const t = await getTranslations("badRequest");
  return (
    <CenteredCard className="text-center">
      <p className="text-sm font-semibold text-brand-700">400</p>
      <h1 className="mt-1 text-xl font-semibold">{t("heading")}</h1>
      <p className="mt-2 text-sm text-slate-600">{t("body")}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        <Link href="/inbox" className="inline-flex items-center rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white hover:bg-brand-700">
          {t("toInbox")}
        </Link>
      </div>
    </CenteredCard>
  );
}
