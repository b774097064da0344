import { getTranslations } from "next-intl/server";
import { redirect } from "next/navigation";
import { AuthShell } from "@/components/brand";
import { TwoFactorCard } from "@/components/settings/account-settings";
import { requireSession } from "@/lib/server/session";
import { safeNextPath } from "@/lib/auth/next-path";

export const dynamic = "force-dynamic";

export async function generateMetadata() {
  return { title: (await getTranslations("authTwoFactor"))("title") };
}

/** The set-up an account that requires two-factor sign-in asks of a user before anything else. */
export default async function RequiredTwoFactorPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { next: raw } = await searchParams;
  const next = safeNextPath(raw);
  const session = await requireSession({ allowEnrolment: true });
  if (session.secondFactor === "ok") redirect(next);
  const t = await getTranslations("authTwoFactor");
  return (
    <AuthShell title={t("title")} subtitle={t("subtitle")}>
      <TwoFactorCard enabled={false} recoveryCodesLeft={0} required continueTo={next} />
    </AuthShell>
  );
}
