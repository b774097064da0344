import { TokensManager } from "@/components/settings/tokens-manager";
import { PageHeader } from "@/components/ui/page-header";
import { collectPages } from "@/lib/platform/pagination";
import { listApiTokens } from "@/lib/auth/api-tokens";
import { requireSession } from "@/lib/auth/current-user";
import { scopeGroups, scopesForRole } from "@/lib/auth/scopes";

export const metadata = { title: "API tokens" };

export default async function TokensPage() {
  const session = await requireSession();
  const tokens = await collectPages((cursor) => listApiTokens({ ctx: session, limit: 100, cursor }));
  const allowed = new Set(scopesForRole(session.user.role));
  const groups = Object.entries(scopeGroups).map(([area, list]) => ({ area, scopes: list.filter((s) => allowed.has(s)) })).filter((g) => g.scopes.length);
  return (
    <>
      <PageHeader
        title="API tokens"
        description="Tokens let scripts and integrations call the Chorus API as you. Each token carries only the scopes you choose, within your role, and expires between 1 day and 1 year from now."
      />
      <TokensManager tokens={tokens} groups={groups} showOwner={session.user.role === "admin"} />
    </>
  );
}
