import { ReportsDashboard } from "@/components/reports/reports-dashboard";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/auth/current-user";
import { businessTimeZone } from "@/lib/reports/zone";

export const metadata = { title: "Reports" };

export default async function ReportsPage() {
  const session = await requireSession();
  // One zone for every figure, range and file name: the business's, whoever looks at the page.
  const timeZone = await businessTimeZone(session.accountId);
  return (
    <main className="mx-auto h-full max-w-6xl overflow-y-auto px-4 py-6">
      <PageHeader
        title="Reports"
        description={`Conversations, messages and response times of the whole team, counted in the business's time zone (${timeZone.replaceAll("_", " ")}).`}
      />
      <ReportsDashboard timeZone={timeZone} />
    </main>
  );
}
