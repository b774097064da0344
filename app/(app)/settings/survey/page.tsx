import { CsatSettingsForm } from "@/components/settings/csat-settings-form";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/auth/current-user";
import { getCsatConfig } from "@/lib/csat/config";

export const metadata = { title: "Satisfaction survey" };

export default async function SurveySettingsPage() {
  const session = await requireSession();
  const config = await getCsatConfig({ ctx: session });
  return (
    <>
      <PageHeader
        title="Satisfaction survey"
        description="When a conversation is closed, ask the customer to rate the help they got from 1 to 5. The answers feed the satisfaction figures of the reports."
      />
      <CsatSettingsForm config={config} canEdit={session.user.role === "admin"} />
    </>
  );
}
