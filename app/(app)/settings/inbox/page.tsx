import { getTranslations } from "next-intl/server";
import { InboxSettingsForm } from "@/components/settings/inbox-settings-form";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/server/session";
import { getInboxSettings } from "@/lib/conversations/inbox-settings";

export async function generateMetadata() {
  return { title: (await getTranslations("settingsInbox"))("metaTitle") };
}

export default async function InboxSettingsPage() {
  const session = await requireSession();
  const [settings, t] = await Promise.all([getInboxSettings({ ctx: session }), getTranslations("settingsInbox")]);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <InboxSettingsForm settings={settings} canEdit={session.user.role === "admin"} />
    </>
  );
}
