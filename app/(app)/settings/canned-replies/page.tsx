import { getTranslations } from "next-intl/server";
import { CannedRepliesManager } from "@/components/settings/canned-replies-manager";
import { PageHeader } from "@/components/ui/page-header";
import { collectPages } from "@/lib/platform/pagination";
import { requireSession } from "@/lib/server/session";
import { listCannedReplies } from "@/lib/canned-replies/canned-replies";

export async function generateMetadata() {
  return { title: (await getTranslations("settingsCannedReplies"))("title") };
}

export default async function CannedRepliesPage() {
  const session = await requireSession();
  const [replies, t] = await Promise.all([collectPages((cursor) => listCannedReplies({ ctx: session, limit: 100, cursor })), getTranslations("settingsCannedReplies")]);
  return (
    <>
      <PageHeader
        title={t("title")}
        description={t.rich("description", {
          contact: "{{contact.name}}",
          agent: "{{agent.name}}",
          business: "{{business.name}}",
          kbd: (chunks) => <kbd className="rounded bg-slate-100 px-1">{chunks}</kbd>,
          code: (chunks) => <code>{chunks}</code>,
        })}
      />
      <CannedRepliesManager replies={replies} canEdit={session.user.role === "admin"} />
    </>
  );
}
