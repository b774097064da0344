import { getTranslations } from "next-intl/server";
import { CsatSettingsForm } from "@/components/settings/csat-settings-form";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/server/session";
import { getCsatConfig } from "@/lib/csat/config";

export async function generateMetadata() {
  return { title: (await getTranslations("settingsSurvey"))("title") };
}

export default async function SurveySettingsPage() {
  const session = await requireSession();
  const [config, t] = await Promise.all([getCsatConfig({ ctx: session }), getTranslations("settingsSurvey")]);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <CsatSettingsForm config={config} canEdit={session.user.role === "admin"} />
    </>
  );
}
