import { getTranslations } from "next-intl/server";
import { LabelsManager } from "@/components/settings/labels-manager";
import { PageHeader } from "@/components/ui/page-header";
import { collectPages } from "@/lib/platform/pagination";
import { requireSession } from "@/lib/server/session";
import { listLabels } from "@/lib/labels/labels";

export async function generateMetadata() {
  return { title: (await getTranslations("settingsLabels"))("title") };
}

export default async function LabelsPage() {
  const session = await requireSession();
  const [labels, t] = await Promise.all([collectPages((cursor) => listLabels({ ctx: session, limit: 100, cursor })), getTranslations("settingsLabels")]);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <LabelsManager labels={labels} canEdit={session.user.role === "admin"} />
    </>
  );
}
