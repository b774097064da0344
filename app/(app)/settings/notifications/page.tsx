import { NotificationSettings } from "@/components/settings/notification-settings";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/auth/current-user";
import { getNotificationPreferences } from "@/lib/push/preferences";
import { vapidPublicKey } from "@/lib/push/vapid";

export const metadata = { title: "Notifications" };

export default async function NotificationsSettingsPage() {
  const session = await requireSession();
  const preferences = await getNotificationPreferences({ ctx: session });
  return (
    <>
      <PageHeader title="Notifications" description="What reaches you on this phone or computer while Chorus is closed, and when it stays quiet." />
      <NotificationSettings preferences={preferences} vapidPublicKey={vapidPublicKey()} />
    </>
  );
}
