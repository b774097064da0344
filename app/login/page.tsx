import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { AuthShell } from "@/components/brand";
import { ForgetOfflineData } from "@/components/pwa/service-worker";
import { LoginForm } from "@/components/setup/login-form";
import { isSetupDone } from "@/lib/accounts/setup";
import { systemContext } from "@/lib/server/context";
import { getCurrentSession } from "@/lib/server/session";
import { safeNextPath } from "@/lib/auth/next-path";

export const dynamic = "force-dynamic";
export async function generateMetadata() {
  return { title: (await getTranslations("auth.login"))("title") };
}

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  if (!(await isSetupDone(systemContext().db))) redirect("/setup");
  const params = await searchParams;
  const next = safeNextPath(params.next);
  const session = await getCurrentSession();
  if (session?.secondFactor === "ok") redirect(next);
  if (session?.secondFactor === "enrolment_required") redirect(`/login/two-factor?next=${encodeURIComponent(next)}`);
  const t = await getTranslations("auth.login");
  return (
    <AuthShell title={t("title")} subtitle={t("subtitle")}>
      <ForgetOfflineData />
      <LoginForm
        email={params.email}
        setupDone={params.setup === "done"}
        notice={params.joined ? t("joined") : params.reset ? t("passwordSaved") : undefined}
        next={next}
      />
    </AuthShell>
  );
}
