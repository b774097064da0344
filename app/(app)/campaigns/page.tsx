import { CampaignsManager } from "@/components/campaigns/campaigns-manager";
import { ContactImport } from "@/components/campaigns/contact-import";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/auth/current-user";

export const metadata = { title: "Campaigns" };

export default async function CampaignsPage() {
  const session = await requireSession();
  const isAdmin = session.user.role === "admin";
  return (
    <main className="mx-auto h-full max-w-6xl overflow-y-auto px-4 py-6">
      <PageHeader
        title="Campaigns"
        description="Send an approved template to customers who agreed to hear from you, at the number's pace. Opted-out, blocked and never-asked contacts are skipped."
      />
      <div className="flex flex-col gap-6">
        <CampaignsManager canManage={isAdmin} />
        <ContactImport />
      </div>
    </main>
  );
}
