import { getTranslations } from "next-intl/server";
import { LanguageCard } from "@/components/settings/language-card";
import { ApiTokensCard, AuthorizedAppsCard, PasswordCard, TwoFactorCard } from "@/components/settings/account-settings";
import { listOwnApiTokens } from "@/lib/auth/api-tokens";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/server/session";
import { mfaRequired, mfaStatus } from "@/lib/auth/mfa";
import { listAuthorizedApps } from "@/lib/oauth/grants";

export async function generateMetadata() {
  return { title: (await getTranslations("account"))("title") };
}

export default async function AccountPage() {
  const session = await requireSession();
  const t = await getTranslations("account");
  const [mfa, required, grants, tokens] = await Promise.all([
    mfaStatus(session.db, { userId: session.user.id }),
    mfaRequired(session),
    listAuthorizedApps({ ctx: session }),
    listOwnApiTokens({ ctx: session }),
  ]);
  return (
    <>
      <PageHeader title={t("title")} description={t("signedInAs", { name: session.user.name, email: session.user.email })} />
      <div className="flex flex-col gap-6">
        <LanguageCard />
        <PasswordCard />
        <TwoFactorCard enabled={mfa.enabled} recoveryCodesLeft={mfa.recoveryCodesLeft} required={required} />
        <ApiTokensCard tokens={tokens} />
        <AuthorizedAppsCard grants={grants} />
      </div>
    </>
  );
}
