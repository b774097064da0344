import { getTranslations } from "next-intl/server";
import { NotificationSettings } from "@/components/settings/notification-settings";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/server/session";
import { getNotificationPreferences } from "@/lib/push/preferences";
import { vapidPublicKey } from "@/lib/push/vapid";

export async function generateMetadata() {
  return { title: (await getTranslations("settingsNotifications"))("title") };
}

export default async function NotificationsSettingsPage() {
  const session = await requireSession();
  const [preferences, t] = await Promise.all([getNotificationPreferences({ ctx: session }), getTranslations("settingsNotifications")]);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <NotificationSettings preferences={preferences} vapidPublicKey={vapidPublicKey()} />
    </>
  );
}
