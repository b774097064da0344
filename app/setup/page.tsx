import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { AuthShell } from "@/components/brand";
import { SetupForm } from "@/components/setup/setup-form";
import { isSetupDone } from "@/lib/accounts/setup";
import { systemContext } from "@/lib/server/context";

export const dynamic = "force-dynamic";
export async function generateMetadata() {
  return { title: (await getTranslations("auth.setup"))("metaTitle") };
}

export default async function SetupPage() {
  if (await isSetupDone(systemContext().db)) redirect("/login");
  const t = await getTranslations("auth.setup");
  return (
    <AuthShell title={t("title")} subtitle={t("subtitle")}>
      <SetupForm />
    </AuthShell>
  );
}
