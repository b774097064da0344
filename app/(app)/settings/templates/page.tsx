import { TemplatesManager } from "@/components/settings/templates-manager";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/auth/current-user";
import { listTemplates } from "@/lib/templates/templates";

export const metadata = { title: "Templates" };

export default async function TemplatesPage() {
  const session = await requireSession();
  const page = await listTemplates({ ctx: session, limit: 100 });
  return (
    <>
      <PageHeader
        title="Message templates"
        description="Templates are reviewed by the messaging network. Once approved, they are the only messages that reach a customer who last wrote more than 24 hours ago."
      />
      <TemplatesManager initial={page.data} canEdit={session.user.role === "admin"} />
    </>
  );
}
