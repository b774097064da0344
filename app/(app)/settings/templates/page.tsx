import { getTranslations } from "next-intl/server";
import { PricingManager } from "@/components/settings/pricing-manager";
import { TemplatesManager } from "@/components/settings/templates-manager";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/server/session";
import { getPricing } from "@/lib/pricing/pricing";
import { listTemplates } from "@/lib/templates/templates";

export async function generateMetadata() {
  return { title: (await getTranslations("settingsTemplates"))("metaTitle") };
}

export default async function TemplatesPage() {
  const session = await requireSession();
  const [page, pricing, t] = await Promise.all([listTemplates({ ctx: session, limit: 100 }), getPricing({ ctx: session }), getTranslations("settingsTemplates")]);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <div className="flex flex-col gap-6">
        <TemplatesManager initial={page.data} canEdit={session.user.role === "admin"} />
        <PricingManager initial={pricing} canEdit={session.user.role === "admin"} />
      </div>
    </>
  );
}
