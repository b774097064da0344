import { UsersManager } from "@/components/settings/users-manager";
import { AdminOnlyNotice } from "@/components/settings/admin-only";
import { PageHeader } from "@/components/ui/page-header";
import { collectPages } from "@/lib/platform/pagination";
import { requireSession } from "@/lib/auth/current-user";
import { mfaEnrolledUserIds, mfaRequired } from "@/lib/auth/mfa";
import { listPendingInvitations } from "@/lib/users/invitations";
import { listUsers } from "@/lib/users/users";

export const metadata = { title: "Users" };

export default async function UsersPage() {
  const session = await requireSession();
  if (session.user.role !== "admin") return <AdminOnlyNotice what="manage users" />;
  const users = await collectPages((cursor) => listUsers({ ctx: session, limit: 100, cursor }));
  const [enrolled, requireMfa, invitations] = await Promise.all([
    mfaEnrolledUserIds({ accountId: session.accountId }),
    mfaRequired({ accountId: session.accountId }),
    listPendingInvitations({ ctx: session }),
  ]);
  return (
    <>
      <PageHeader
        title="Users"
        description="Everyone here sees and answers every conversation. Administrators also manage the number, users, webhooks and settings; agents do not."
      />
      <UsersManager users={users} currentUserId={session.user.id} mfaUserIds={[...enrolled]} requireMfa={requireMfa} invitations={invitations.data} />
    </>
  );
}
