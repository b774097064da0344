import { getTranslations } from "next-intl/server";
import { WebhooksManager } from "@/components/settings/webhooks/webhooks-manager";
import { AdminOnlyPage } from "@/components/settings/admin-only";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/server/session";
import { listWebhooks } from "@/lib/webhooks/list-webhooks";
import { eventTypeGroups, MAX_WEBHOOKS_PER_ACCOUNT } from "@/lib/webhooks/schemas";

export async function generateMetadata() {
  return { title: (await getTranslations("webhooks"))("title") };
}

export default async function WebhooksPage() {
  const [session, t] = await Promise.all([requireSession(), getTranslations("webhooks")]);
  const header = <PageHeader title={t("title")} description={t("description")} />;
  if (session.user.role !== "admin") return <AdminOnlyPage header={header} notice={t("adminOnly")} />;
  const page = await listWebhooks({ ctx: session, limit: MAX_WEBHOOKS_PER_ACCOUNT });
  return (
    <>
      {header}
      <WebhooksManager webhooks={page.data} eventGroups={eventTypeGroups} limit={MAX_WEBHOOKS_PER_ACCOUNT} />
    </>
  );
}
