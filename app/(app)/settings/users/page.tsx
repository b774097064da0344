import { UsersManager } from "@/components/settings/users-manager";
import { AdminOnlyNotice } from "@/components/settings/admin-only";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/auth/current-user";
import { listUsers } from "@/lib/users/users";

export const metadata = { title: "Users" };

export default async function UsersPage() {
  const session = await requireSession();
  if (session.user.role !== "admin") return <AdminOnlyNotice what="manage users" />;
  const page = await listUsers({ ctx: session, limit: 100 });
  return (
    <>
      <PageHeader
        title="Users"
        description="Everyone here sees and answers every conversation. Administrators also manage the number, users, webhooks and settings; agents do not."
      />
      <UsersManager users={page.data} currentUserId={session.user.id} />
    </>
  );
}
