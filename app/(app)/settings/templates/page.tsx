import { PricingManager } from "@/components/settings/pricing-manager";
import { TemplatesManager } from "@/components/settings/templates-manager";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/auth/current-user";
import { getPricing } from "@/lib/pricing/pricing";
import { listTemplates } from "@/lib/templates/templates";

export const metadata = { title: "Templates" };

export default async function TemplatesPage() {
  const session = await requireSession();
  const [page, pricing] = await Promise.all([listTemplates({ ctx: session, limit: 100 }), getPricing({ ctx: session })]);
  return (
    <>
      <PageHeader
        title="Message templates"
        description="Templates are reviewed by the messaging network. Once approved, they are the only messages that reach a customer who last wrote more than 24 hours ago."
      />
      <div className="flex flex-col gap-6">
        <TemplatesManager initial={page.data} canEdit={session.user.role === "admin"} />
        <PricingManager initial={pricing} canEdit={session.user.role === "admin"} />
      </div>
    </>
  );
}
