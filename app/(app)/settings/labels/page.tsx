import { LabelsManager } from "@/components/settings/labels-manager";
import { PageHeader } from "@/components/ui/page-header";
import { collectPages } from "@/lib/platform/pagination";
import { requireSession } from "@/lib/auth/current-user";
import { listLabels } from "@/lib/labels/labels";

export const metadata = { title: "Labels" };

export default async function LabelsPage() {
  const session = await requireSession();
  const labels = await collectPages((cursor) => listLabels({ ctx: session, limit: 100, cursor }));
  return (
    <>
      <PageHeader title="Labels" description="Labels organise conversations: put them on a conversation from its header, and filter the inbox by them." />
      <LabelsManager labels={labels} canEdit={session.user.role === "admin"} />
    </>
  );
}
