import { ReportsDashboard } from "@/components/reports/reports-dashboard";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/auth/current-user";

export const metadata = { title: "Reports" };

export default async function ReportsPage() {
  await requireSession();
  return (
    <main className="mx-auto h-full max-w-6xl overflow-y-auto px-4 py-6">
      <PageHeader title="Reports" description="Conversations, messages and response times of the whole team, counted in your time zone." />
      <ReportsDashboard />
    </main>
  );
}
