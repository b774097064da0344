import { redirect } from "next/navigation";
import { AuthShell } from "@/components/brand";
import { SetupForm } from "@/components/setup/setup-form";
import { isSetupDone } from "@/lib/accounts/setup";

export const dynamic = "force-dynamic";
export const metadata = { title: "Set up" };

export default async function SetupPage() {
  if (await isSetupDone()) redirect("/login");
  return (
    <AuthShell title="Set up Chorus" subtitle="Create your business account and its first administrator.">
      <SetupForm />
    </AuthShell>
  );
}
