import { InboxSettingsForm } from "@/components/settings/inbox-settings-form";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/auth/current-user";
import { getInboxSettings } from "@/lib/conversations/inbox-settings";

export const metadata = { title: "Inbox settings" };

export default async function InboxSettingsPage() {
  const session = await requireSession();
  const settings = await getInboxSettings({ ctx: session });
  return (
    <>
      <PageHeader title="Inbox" description="How the shared inbox behaves for everyone in your team." />
      <InboxSettingsForm settings={settings} canEdit={session.user.role === "admin"} />
    </>
  );
}
