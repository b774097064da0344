import { getTranslations } from "next-intl/server";
import { TokensManager } from "@/components/settings/tokens-manager";
import { PageHeader } from "@/components/ui/page-header";
import { collectPages } from "@/lib/platform/pagination";
import { listApiTokens } from "@/lib/auth/api-tokens";
import { requireSession } from "@/lib/server/session";
import { scopeGroups, scopesForRole } from "@/lib/auth/scopes";

export async function generateMetadata() {
  return { title: (await getTranslations("settingsTokens"))("title") };
}

export default async function TokensPage() {
  const session = await requireSession();
  const [tokens, t] = await Promise.all([collectPages((cursor) => listApiTokens({ ctx: session, limit: 100, cursor })), getTranslations("settingsTokens")]);
  const allowed = new Set(scopesForRole(session.user.role));
  const groups = Object.entries(scopeGroups).map(([area, list]) => ({ area, scopes: list.filter((s) => allowed.has(s)) })).filter((g) => g.scopes.length);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <TokensManager tokens={tokens} groups={groups} showOwner={session.user.role === "admin"} />
    </>
  );
}
