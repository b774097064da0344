import { redirect } from "next/navigation";
import { AuthShell } from "@/components/brand";
import { ForgetOfflineData } from "@/components/pwa/service-worker";
import { LoginForm } from "@/components/setup/login-form";
import { isSetupDone } from "@/lib/accounts/setup";
import { getCurrentSession } from "@/lib/auth/current-user";
import { safeNextPath } from "@/lib/auth/next-path";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  if (!(await isSetupDone())) redirect("/setup");
  const params = await searchParams;
  const next = safeNextPath(params.next);
  const session = await getCurrentSession();
  if (session?.secondFactor === "ok") redirect(next);
  if (session?.secondFactor === "enrolment_required") redirect(`/login/two-factor?next=${encodeURIComponent(next)}`);
  return (
    <AuthShell title="Sign in" subtitle="Answer your business number together with your team.">
      <ForgetOfflineData />
      <LoginForm
        email={params.email}
        setupDone={params.setup === "done"}
        notice={params.joined ? "Welcome to the team. Sign in with your new password." : params.reset ? "Your password is saved. Sign in with it." : undefined}
        next={next}
      />
    </AuthShell>
  );
}
