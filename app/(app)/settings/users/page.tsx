import { getTranslations } from "next-intl/server";
import { UsersManager } from "@/components/settings/users-manager";
import { AdminOnlyNotice } from "@/components/settings/admin-only";
import { PageHeader } from "@/components/ui/page-header";
import { collectPages } from "@/lib/platform/pagination";
import { requireSession } from "@/lib/server/session";
import { mfaEnrolledUserIds, mfaRequired } from "@/lib/auth/mfa";
import { listPendingInvitations } from "@/lib/users/invitations";
import { listUsers } from "@/lib/users/users";

export async function generateMetadata() {
  return { title: (await getTranslations("settingsUsers"))("title") };
}

export default async function UsersPage() {
  const session = await requireSession();
  if (session.user.role !== "admin") return <AdminOnlyNotice what="users" />;
  const users = await collectPages((cursor) => listUsers({ ctx: session, limit: 100, cursor }));
  const [enrolled, requireMfa, invitations, t] = await Promise.all([
    mfaEnrolledUserIds(session),
    mfaRequired(session),
    listPendingInvitations({ ctx: session }),
    getTranslations("settingsUsers"),
  ]);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <UsersManager users={users} currentUserId={session.user.id} mfaUserIds={[...enrolled]} requireMfa={requireMfa} invitations={invitations.data} />
    </>
  );
}
