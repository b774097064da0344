import { getTranslations } from "next-intl/server";
import { CampaignsManager } from "@/components/campaigns/campaigns-manager";
import { ContactImport } from "@/components/campaigns/contact-import";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/server/session";

export async function generateMetadata() {
  return { title: (await getTranslations("campaigns"))("title") };
}

export default async function CampaignsPage() {
  const session = await requireSession();
  const isAdmin = session.user.role === "admin";
  const t = await getTranslations("campaigns");
  return (
    <main className="mx-auto h-full max-w-6xl overflow-y-auto px-4 py-6">
      <PageHeader title={t("title")} description={t("description")} />
      <div className="flex flex-col gap-6">
        <CampaignsManager canManage={isAdmin} />
        <ContactImport />
      </div>
    </main>
  );
}
