import { AdminOnlyNotice } from "@/components/settings/admin-only";
import { AppsManager } from "@/components/settings/apps-manager";
import { PageHeader } from "@/components/ui/page-header";
import { collectPages } from "@/lib/platform/pagination";
import { requireSession } from "@/lib/auth/current-user";
import { scopeLabels } from "@/lib/auth/scope-labels";
import { scopeGroups } from "@/lib/auth/scopes";
import { getEnv } from "@/lib/platform/env";
import { listApps } from "@/lib/oauth/apps";

export const metadata = { title: "Apps" };

export default async function AppsPage() {
  const session = await requireSession();
  if (session.user.role !== "admin") return <AdminOnlyNotice what="apps" />;
  const apps = await collectPages((cursor) => listApps({ ctx: session, limit: 100, cursor }));
  const groups = Object.entries(scopeGroups).map(([area, scopes]) => ({ area, scopes: scopes.map((scope) => ({ scope, label: scopeLabels[scope] })) }));
  return (
    <>
      <PageHeader
        title="Apps"
        description="Third-party apps that ask your teammates for access with OAuth 2.0 (authorization code with PKCE). Each user sees what an app asks for and can remove it later."
      />
      <AppsManager apps={apps} groups={groups} issuer={getEnv().APP_URL} />
    </>
  );
}
