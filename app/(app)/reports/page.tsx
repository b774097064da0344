import { getTranslations } from "next-intl/server";
import { ReportsDashboard } from "@/components/reports/reports-dashboard";
import { PageHeader } from "@/components/ui/page-header";
import { verbContext } from "@/lib/server/context";
import { requireSession } from "@/lib/server/session";
import { businessTimeZone } from "@/lib/reports/zone";

export async function generateMetadata() {
  return { title: (await getTranslations("reports"))("title") };
}

export default async function ReportsPage() {
  const session = await requireSession();
  // One zone for every figure, range and file name: the business's, whoever looks at the page.
  const [timeZone, t] = await Promise.all([businessTimeZone(verbContext({ accountId: session.accountId })), getTranslations("reports")]);
  return (
    <main className="mx-auto h-full max-w-6xl overflow-y-auto px-4 py-6">
      <PageHeader title={t("title")} description={t("description", { zone: timeZone.replaceAll("_", " ") })} />
      <ReportsDashboard timeZone={timeZone} />
    </main>
  );
}
