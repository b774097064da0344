import { getTranslations } from "next-intl/server";
import { AdminOnlyNotice } from "@/components/settings/admin-only";
import { AppsManager } from "@/components/settings/apps-manager";
import { PageHeader } from "@/components/ui/page-header";
import { collectPages } from "@/lib/platform/pagination";
import { requireSession } from "@/lib/server/session";
import { scopeGroups } from "@/lib/auth/scopes";
import { getEnv } from "@/lib/platform/env";
import { listApps } from "@/lib/oauth/apps";

export async function generateMetadata() {
  return { title: (await getTranslations("settingsApps"))("title") };
}

export default async function AppsPage() {
  const session = await requireSession();
  if (session.user.role !== "admin") return <AdminOnlyNotice what="apps" />;
  const [apps, t] = await Promise.all([collectPages((cursor) => listApps({ ctx: session, limit: 100, cursor })), getTranslations("settingsApps")]);
  const groups = Object.entries(scopeGroups).map(([area, scopes]) => ({ area, scopes }));
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <AppsManager apps={apps} groups={groups} issuer={getEnv().APP_URL} />
    </>
  );
}
