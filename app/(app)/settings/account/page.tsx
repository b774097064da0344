import { ApiTokensCard, AuthorizedAppsCard, PasswordCard, TwoFactorCard } from "@/components/settings/account-settings";
import { listOwnApiTokens } from "@/lib/auth/api-tokens";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/auth/current-user";
import { mfaRequired, mfaStatus } from "@/lib/auth/mfa";
import { listAuthorizedApps } from "@/lib/oauth/grants";

export const metadata = { title: "Account" };

export default async function AccountPage() {
  const session = await requireSession();
  const [mfa, required, grants, tokens] = await Promise.all([
    mfaStatus({ userId: session.user.id }),
    mfaRequired({ accountId: session.accountId }),
    listAuthorizedApps({ ctx: session }),
    listOwnApiTokens({ ctx: session }),
  ]);
  return (
    <>
      <PageHeader title="Account" description={`Signed in as ${session.user.name} (${session.user.email}).`} />
      <div className="flex flex-col gap-6">
        <PasswordCard />
        <TwoFactorCard enabled={mfa.enabled} recoveryCodesLeft={mfa.recoveryCodesLeft} required={required} />
        <ApiTokensCard tokens={tokens} />
        <AuthorizedAppsCard grants={grants} />
      </div>
    </>
  );
}
